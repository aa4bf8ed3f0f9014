//! The tessellation stages' language (GLSL 4.00 §4.3.4, §4.3.6, §4.3.8.1–2, §7.1, §8.16;
//! GL_ARB_tessellation_shader below 4.00): `layout(vertices = N) out;` of a control
//! shader, `layout(triangles | quads | isolines, <spacing>, cw | ccw, point_mode) in;` of
//! an evaluation shader, per-vertex inputs sized gl_MaxPatchVertices and control outputs
//! sized by the output patch, `patch in` / `patch out`, the built-ins (`gl_in[]`,
//! `gl_out[]`, gl_TessLevelOuter/Inner, gl_TessCoord, gl_PatchVerticesIn,
//! gl_PrimitiveID, gl_InvocationID), the rule that a control shader writes only
//! `gl_out[gl_InvocationID]` of its per-vertex outputs, and where `barrier()` may stand.
//! What the stages become is `ir::tess`'s business.

use std::rc::Rc;

use crate::ir::tess::{self as tess, Mode, Spacing};
use crate::ir::{BaseType, BuiltinOutput, InterfaceVar, Interpolation, Stage};

use super::ast::{self, Expr, ExprKind};
use super::diag::Span;
use super::lower::{bail, Lowerer, PendingOutput, Root, Sym, VarSym, R};
use super::per_vertex::MAX_IN_CLIP_DISTANCES;
use super::types::{vt, StructDef, Type};

impl Lowerer {
    /// Whether this is a tessellation stage.
    pub(super) fn is_tess(&self) -> bool {
        matches!(self.stage, Stage::TessControl | Stage::TessEval)
    }

    /// Tessellation shaders need GLSL 4.00 or GL_ARB_tessellation_shader.
    pub(super) fn tess_available(&self) -> bool {
        self.version >= 400 || self.tessellation
    }

    /// `layout(vertices = N) out;` (control) and `layout(<mode>, <spacing>, <order>,
    /// point_mode) in;` (evaluation), GLSL 4.00 §4.3.8.1–2: every declaration of the stage
    /// must agree.
    pub(super) fn tess_layout(&mut self, q: &ast::Qualifiers) -> R<()> {
        let is_in = q.storage == Some(ast::Storage::In);
        for l in &q.layout {
            let name = l.name.as_str();
            match (name, self.stage, is_in) {
                ("vertices", Stage::TessControl, false) => {
                    let v = self.layout_int(l)?;
                    if v < 1 || v > tess::MAX_PATCH_VERTICES as i64 {
                        bail!(
                            self,
                            l.span,
                            "`vertices' is {v}: it must be 1 to gl_MaxPatchVertices ({})",
                            tess::MAX_PATCH_VERTICES
                        );
                    }
                    match self.tess.vertices {
                        Some(old) if old != v as u32 => bail!(
                            self,
                            l.span,
                            "`vertices = {v}' differs from {old} declared before"
                        ),
                        _ => self.tess.vertices = Some(v as u32),
                    }
                    self.tess_vertices_declared = true;
                }
                ("triangles" | "quads" | "isolines", Stage::TessEval, true) => {
                    let m = match name {
                        "triangles" => Mode::Triangles,
                        "quads" => Mode::Quads,
                        _ => Mode::Isolines,
                    };
                    match self.tess.mode {
                        Some(old) if old != m => bail!(
                            self,
                            l.span,
                            "primitive mode `{name}' differs from the one declared before"
                        ),
                        _ => self.tess.mode = Some(m),
                    }
                }
                (
                    "equal_spacing" | "fractional_even_spacing" | "fractional_odd_spacing",
                    Stage::TessEval,
                    true,
                ) => {
                    let s = match name {
                        "equal_spacing" => Spacing::Equal,
                        "fractional_even_spacing" => Spacing::FractionalEven,
                        _ => Spacing::FractionalOdd,
                    };
                    match self.tess.spacing {
                        Some(old) if old != s => bail!(
                            self,
                            l.span,
                            "vertex spacing `{name}' differs from the one declared before"
                        ),
                        _ => self.tess.spacing = Some(s),
                    }
                }
                ("cw" | "ccw", Stage::TessEval, true) => {
                    let cw = name == "cw";
                    match self.tess.cw {
                        Some(old) if old != cw => bail!(
                            self,
                            l.span,
                            "vertex order `{name}' differs from the one declared before"
                        ),
                        _ => self.tess.cw = Some(cw),
                    }
                }
                ("point_mode", Stage::TessEval, true) => self.tess.point_mode = true,
                ("xfb_buffer" | "xfb_stride", Stage::TessEval, false) => {}
                (n, _, _) => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on a tessellation {} shader `{}'",
                    if self.stage == Stage::TessControl {
                        "control"
                    } else {
                        "evaluation"
                    },
                    if is_in { "in" } else { "out" }
                ),
            }
        }
        Ok(())
    }

    /// The output patch size of the stage's units, read before anything is lowered: an
    /// unsized per-vertex output may come before `layout(vertices = N) out;` and takes
    /// its size from it (as `prescan_geometry_input`).
    pub(super) fn prescan_tess_vertices(&mut self, units: &[Vec<ast::External>]) {
        if self.stage != Stage::TessControl {
            return;
        }
        let first = super::geometry::first_default_layout(units, ast::Storage::Out, |l| {
            (l.name == "vertices")
                .then(|| l.value.as_ref().and_then(|e| self.const_eval(e)))
                .flatten()
                .and_then(|c| c.as_index())
                .filter(|&n| (1..=tess::MAX_PATCH_VERTICES as i64).contains(&n))
        });
        if self.tess.vertices.is_none() {
            self.tess.vertices = first.map(|n| n as u32);
        }
    }

    /// Whether a global `in`/`out` of this stage is an array with one element per vertex
    /// (GLSL 4.00 §4.3.4, §4.3.6): the inputs of both tessellation stages and the control
    /// shader's outputs, unless `patch`.
    pub(super) fn tess_arrayed(&self, is_in: bool, patch: bool) -> bool {
        !patch
            && match self.stage {
                Stage::TessControl => true,
                Stage::TessEval => is_in,
                _ => false,
            }
    }

    /// The size of a per-vertex array `name` of a tessellation stage: gl_MaxPatchVertices
    /// for inputs, the output patch size for control outputs (`declared` must match it).
    pub(super) fn tess_array_len(
        &mut self,
        name: &str,
        is_in: bool,
        declared: Option<u32>,
        span: Span,
    ) -> R<u32> {
        let want = if is_in {
            Some(tess::MAX_PATCH_VERTICES)
        } else {
            self.tess.vertices
        };
        match (declared, want) {
            (Some(n), Some(k)) if n != k => {
                if is_in {
                    bail!(
                        self,
                        span,
                        "input `{name}' has size {n}: per-vertex inputs have gl_MaxPatchVertices ({k}) elements"
                    )
                }
                bail!(
                    self,
                    span,
                    "output `{name}' has size {n}, but the output patch has {k} vertices"
                )
            }
            // A declared size equal to the patch's (`out int v[3];` after
            // `layout(vertices = 3) out;`), or with no patch size to check it against.
            (Some(n), _) => Ok(n),
            (None, Some(k)) => Ok(k),
            (_, _) if !self.linking => Ok(tess::MAX_PATCH_VERTICES),
            _ => bail!(
                self,
                span,
                "unsized output `{name}' without an output patch size (layout(vertices = N) out;)"
            ),
        }
    }

    /// Records a `patch` qualifier: only on evaluation inputs and control outputs.
    pub(super) fn tess_patch(&mut self, q: &ast::Qualifiers, name: &str, span: Span) -> R<()> {
        if !q.patch {
            return Ok(());
        }
        let ok = matches!(
            (self.stage, q.storage),
            (Stage::TessControl, Some(ast::Storage::Out))
                | (Stage::TessEval, Some(ast::Storage::In))
        );
        if !ok || !self.tess_available() {
            bail!(
                self,
                span,
                "`patch' applies only to tessellation control outputs and evaluation inputs"
            );
        }
        self.tess.patch.push(name.to_string());
        Ok(())
    }

    /// The tessellation built-ins (GLSL 4.00 §7.1); `None` for other names (gl_in[],
    /// gl_InvocationID and the vertex outputs are `geometry_builtin_var`'s and
    /// `builtin_var`'s).
    pub(super) fn tess_builtin_var(&mut self, name: &str) -> Option<Sym> {
        if !self.is_tess() {
            return None;
        }
        let control = self.stage == Stage::TessControl;
        let (ty, vars, writable): (Type, Vec<_>, bool) = match name {
            "gl_PatchVerticesIn" => {
                let v = self.builtin_inputs(name, BuiltinOutput::PatchVerticesIn, &Type::INT, None);
                (Type::INT, v, false)
            }
            "gl_PrimitiveID" => {
                let v = self.builtin_inputs(name, BuiltinOutput::PrimitiveIdIn, &Type::INT, None);
                (Type::INT, v, false)
            }
            "gl_TessCoord" if !control => {
                let ty = Type::vector(BaseType::Float, 3);
                let v = self.builtin_inputs(name, BuiltinOutput::TessCoord, &ty, None);
                (ty, v, false)
            }
            "gl_TessLevelOuter" | "gl_TessLevelInner" => {
                let (b, n) = if name == "gl_TessLevelOuter" {
                    (BuiltinOutput::TessLevelOuter, 4)
                } else {
                    (BuiltinOutput::TessLevelInner, 2)
                };
                let ty = Type::Array(Box::new(Type::FLOAT), n);
                if control {
                    let vars = self.new_vars_for(&ty);
                    self.outputs.push(PendingOutput {
                        var: InterfaceVar {
                            name: name.to_string(),
                            ty: vt(BaseType::Float, 1, 1),
                            array_len: Some(n),
                            location: None,
                            slot: 0,
                            words: n,
                            interpolation: Interpolation::Flat,
                            builtin: Some(b),
                        },
                        vars: vars.clone().into(),
                    });
                    (ty, vars, true)
                } else {
                    let v = self.builtin_inputs(name, b, &ty, Some(n));
                    (ty, v, false)
                }
            }
            "gl_out" if control => {
                let n = self.tess.vertices.unwrap_or(tess::MAX_PATCH_VERTICES);
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
                let vars = self.new_vars_for(&ty);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Float, 1, 1),
                        array_len: Some(n),
                        location: None,
                        slot: 0,
                        words: ty.words(),
                        interpolation: Interpolation::Smooth,
                        builtin: Some(BuiltinOutput::PerVertexOut),
                    },
                    vars: vars.clone().into(),
                });
                (ty, vars, true)
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

    /// GLSL 4.00 §4.3.6: a control shader writes its per-vertex outputs only at
    /// `[gl_InvocationID]`. `lhs` is the target of an assignment.
    pub(super) fn check_tess_write(&mut self, lhs: &Expr) -> R<()> {
        if self.stage != Stage::TessControl {
            return Ok(());
        }
        // The outermost index of the target's root variable.
        let mut e = lhs;
        let mut index: Option<&Expr> = None;
        loop {
            match &e.kind {
                ExprKind::Field(b, _) => e = b,
                ExprKind::Index(b, i) => {
                    index = Some(i);
                    e = b;
                }
                _ => break,
            }
        }
        let ExprKind::Ident(root) = &e.kind else {
            return Ok(());
        };
        let per_vertex = root == "gl_out"
            || self.outputs.iter().any(|o| {
                o.var.builtin.is_none()
                    && !self.tess.is_patch(&o.var.name)
                    && (o.var.name == *root
                        || o.var.name.starts_with(&format!("{root}."))
                        || o.var.name.starts_with(&format!("{root}[")))
            });
        // An instance of a per-vertex output block (`out B { .. } x[];`): its symbol holds
        // the members' vars.
        let block_instance = || match self.scopes.first().and_then(|s| s.get(root.as_str())) {
            Some(Sym::Var(v)) => match &v.root {
                Root::Vars(vs) => self.outputs.iter().any(|o| {
                    o.var.builtin.is_none()
                        && !self.tess.is_patch(&o.var.name)
                        && o.vars.first().is_some_and(|f| vs.contains(f))
                }),
                _ => false,
            },
            _ => false,
        };
        if !per_vertex && !block_instance() {
            return Ok(());
        }
        // The scope may hide the output behind a local of the same name.
        if self.scopes.len() > 1
            && self.scopes[1..]
                .iter()
                .any(|s| s.contains_key(root.as_str()))
        {
            return Ok(());
        }
        match index.map(|i| &i.kind) {
            Some(ExprKind::Ident(n)) if n == "gl_InvocationID" => Ok(()),
            _ => bail!(
                self,
                lhs.span,
                "a tessellation control shader may only write `{root}[gl_InvocationID]'"
            ),
        }
    }
}

/// Whether `s` holds a `return` anywhere (GLSL 4.00 §8.16: no barrier() after one).
pub(super) fn has_return(s: &ast::Stmt) -> bool {
    use ast::StmtKind as K;
    match &s.kind {
        K::Return(_) => true,
        K::Block(list) | K::Switch(_, list) => list.iter().any(has_return),
        K::If(_, a, b) => has_return(a) || b.as_deref().is_some_and(has_return),
        K::For { init, body, .. } => init.as_deref().is_some_and(has_return) || has_return(body),
        K::While(_, body) | K::DoWhile(body, _) => has_return(body),
        _ => false,
    }
}

/// Whether a statement of main's top level is `barrier();` (GLSL 4.00 §8.16: the only
/// place a tessellation control shader may call it).
pub(super) fn is_barrier_stmt(s: &ast::Stmt) -> bool {
    matches!(
        &s.kind,
        ast::StmtKind::Expr(Expr {
            kind: ExprKind::Call(ast::Callee::Name(n), args),
            ..
        }) if n == "barrier" && args.is_empty()
    )
}
