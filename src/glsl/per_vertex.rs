//! Redeclaring the built-in `gl_PerVertex` block (GLSL 1.50 §7.1, GLSL 4.60 §7.1.1):
//! `out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[4]; };` in vertex and
//! geometry shaders, and `in gl_PerVertex { ... } gl_in[];` in geometry shaders, name the
//! built-in members a shader uses and may size gl_ClipDistance / gl_CullDistance. The
//! members themselves stay the built-ins `interface.rs` and `geometry.rs` declare; this
//! file checks the redeclaration and records the sizes and the input block's shape.

use super::ast;
use super::lower::{bail, Lowerer, R};
use super::types::Type;
use crate::ir::{BaseType, Stage};

/// gl_in's clip distances: the words `ir::geometry::link_inputs` fills per vertex.
pub(super) const MAX_IN_CLIP_DISTANCES: u32 = 8;

impl Lowerer {
    /// `out gl_PerVertex { ... };` (vertex, geometry) or `in gl_PerVertex { ... } gl_in[];`
    /// (geometry). Members must be built-ins of the block with their own types; sizes of the
    /// distance arrays are taken as `out float gl_ClipDistance[n];` takes them.
    pub(super) fn redeclare_per_vertex(&mut self, b: &ast::BlockDecl) -> R<()> {
        let is_in = b.quals.storage == Some(ast::Storage::In);
        let inst = b.instance.as_ref();
        let named = |want: &str| inst.is_some_and(|(name, dims)| name == want && dims.len() == 1);
        let shape_ok = match (self.stage, is_in) {
            (Stage::Vertex | Stage::Geometry | Stage::TessEval, false) => inst.is_none(),
            (Stage::Geometry | Stage::TessControl | Stage::TessEval, true) => named("gl_in"),
            // GLSL 4.00 §7.1: a control shader's `out gl_PerVertex { ... } gl_out[];`. The
            // output record keeps every member (`glsl::tess`), so only the members are
            // checked.
            (Stage::TessControl, false) => named("gl_out"),
            _ => false,
        };
        if !shape_ok {
            bail!(
                self,
                b.span,
                "gl_PerVertex can only be redeclared as `out gl_PerVertex {{ ... }};' in vertex, \
                 tessellation evaluation and geometry shaders, `out gl_PerVertex {{ ... }} \
                 gl_out[];' in tessellation control shaders or `in gl_PerVertex {{ ... }} \
                 gl_in[];' in geometry and tessellation shaders"
            );
        }
        if is_in {
            if self.scopes[0].contains_key("gl_in") {
                bail!(self, b.span, "`gl_in' redeclared after it was used");
            }
            if let Some((_, dims)) = inst {
                if let [Some(e)] = dims.as_slice() {
                    let n = self.array_size(e)?;
                    if self.stage == Stage::Geometry {
                        self.geometry_input_len("gl_in", Some(n), b.span)?;
                    } else {
                        self.tess_array_len("gl_in", true, Some(n), b.span)?;
                    }
                }
            }
        }
        let mut members: Vec<(String, Type)> = Vec::new();
        for m in &b.members {
            let mt = self.resolve_type(&m.ty)?;
            for (name, dims, sp) in &m.names {
                if members.iter().any(|(n, _)| n == name) {
                    bail!(self, *sp, "`{name}' redeclared twice in gl_PerVertex");
                }
                let distance = matches!(name.as_str(), "gl_ClipDistance" | "gl_CullDistance");
                // An unsized distance array keeps its implicit size (the maximum for gl_in).
                let implicit = dims.as_slice() == [None];
                let t = self.apply_dims(
                    mt.clone(),
                    dims,
                    distance.then_some(MAX_IN_CLIP_DISTANCES),
                    *sp,
                )?;
                let want_ok = match name.as_str() {
                    "gl_Position" => t == Type::vector(BaseType::Float, 4),
                    "gl_PointSize" => t == Type::FLOAT,
                    "gl_ClipDistance" | "gl_CullDistance" => {
                        matches!(&t, Type::Array(e, _) if **e == Type::FLOAT)
                    }
                    // Members where the stage may write them (GL_AMD_vertex_shader_layer
                    // and friends name them in gl_PerVertex).
                    "gl_Layer" | "gl_ViewportIndex"
                        if !is_in && self.may_write_layer_or_viewport(name) =>
                    {
                        t == Type::INT
                    }
                    _ => bail!(self, *sp, "`{name}' is not a member of gl_PerVertex"),
                };
                if !want_ok {
                    bail!(
                        self,
                        *sp,
                        "gl_PerVertex member `{name}' must keep its built-in type"
                    );
                }
                if is_in && name == "gl_CullDistance" {
                    bail!(
                        self,
                        *sp,
                        "gl_in[].gl_CullDistance is not supported by softgl yet"
                    );
                }
                if distance && !is_in && !implicit && self.stage != Stage::TessControl {
                    let d = ast::Declarator {
                        name: name.clone(),
                        dims: dims.clone(),
                        init: None,
                        span: *sp,
                    };
                    self.redeclare_distance(Some(ast::Storage::Out), &t, &d)?;
                }
                if distance && is_in {
                    if let Type::Array(_, n) = &t {
                        if *n == 0 || *n > MAX_IN_CLIP_DISTANCES {
                            bail!(
                                self,
                                *sp,
                                "`{name}' array size must be 1 to gl_MaxClipDistances ({MAX_IN_CLIP_DISTANCES})"
                            );
                        }
                    }
                }
                members.push((name.clone(), t));
            }
        }
        if is_in {
            self.per_vertex_in = Some(members);
        }
        Ok(())
    }
}
