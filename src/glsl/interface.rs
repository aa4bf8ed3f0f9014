//! Global declarations and the stage interface: plain globals and locals, uniforms (leaves
//! and word offsets of the default block), std140 uniform blocks (GL 4.5 §7.6.2.2), inputs
//! and outputs with their slots, layout qualifiers, and the built-in variables
//! (GLSL 4.60 §7.1).

use std::rc::Rc;

use crate::ir::{
    self, BaseType, Builtin, BuiltinOutput, InterfaceVar, Interpolation, Op, ScalarKind, Stage,
    Stmt, UniformDecl, ValueType, Var,
};

use super::ast::{self, Expr, ExprKind, InterpQual, Qualifiers, Storage};
use super::consts;
use super::diag::Span;
use super::lower::*;
use super::preprocess::Profile;
use super::types::{self, vt, StructDef, Type};

/// A storage qualifier as written in messages.
fn storage_name(s: Option<Storage>) -> &'static str {
    match s {
        None => "(no qualifier)",
        Some(Storage::Const) => "const",
        Some(Storage::In) => "in",
        Some(Storage::Out) => "out",
        Some(Storage::Uniform) => "uniform",
        Some(Storage::InOut) => "inout",
        Some(Storage::Buffer) => "buffer",
        Some(Storage::Attribute) => "attribute",
        Some(Storage::Varying) => "varying",
        Some(Storage::Shared) => "shared",
    }
}

impl Lowerer {
    /// `attribute` and `varying` at global scope: deprecated since GLSL 1.30 but part of
    /// the core language until GLSL 4.20 moved them to the compatibility profile (as the
    /// deprecated built-ins below; Mesa accepts `varying` in `#version 150` core too).
    pub(super) fn legacy_allowed(&self) -> bool {
        self.version < 420 || self.profile == Profile::Compatibility
    }

    /// The deprecated built-ins GLSL 4.20 moved to the compatibility profile: `texture2D`
    /// and its kin, `gl_FragColor`, `gl_FragData`. Before 4.20 they are deprecated but part
    /// of the core language (GLSL 1.40–4.10 list them as deprecated, not removed).
    pub(super) fn deprecated_builtins_allowed(&self) -> bool {
        self.version < 420 || self.profile == Profile::Compatibility
    }

    /// `layout(...) uniform;`, `layout(early_fragment_tests) in;`, `invariant gl_Position;`
    pub(super) fn global_qualifiers(&mut self, q: &Qualifiers, names: &[String]) -> R<()> {
        if !names.is_empty() {
            for n in names {
                if self.lookup(n).is_none() {
                    bail!(self, q.span, "`{n}' undeclared");
                }
            }
            return Ok(());
        }
        if q.layout
            .iter()
            .any(|l| super::xfb::is_xfb_qualifier(&l.name))
        {
            self.xfb_global(q)?;
        }
        if self.stage == Stage::Geometry
            && matches!(q.storage, Some(Storage::In) | Some(Storage::Out))
            && !q.layout.is_empty()
        {
            return self.geometry_layout(q);
        }
        if q.storage == Some(Storage::Uniform) && q.layout.iter().any(|l| l.name == "offset") {
            // `layout(binding = b, offset = o) uniform;`: the next counter of binding b
            // declared without an offset goes to o, as with `uniform atomic_uint;`.
            return self.atomic_counter_default(q, q.span);
        }
        if self.is_tess()
            && matches!(q.storage, Some(Storage::In) | Some(Storage::Out))
            && !q.layout.is_empty()
        {
            return self.tess_layout(q);
        }
        for l in &q.layout {
            match (l.name.as_str(), q.storage) {
                ("bindless_sampler", Some(Storage::Uniform)) => {
                    self.need_bindless(l.span, "layout(bindless_sampler)")?;
                    self.global_bindless = true;
                }
                ("bound_sampler", Some(Storage::Uniform)) => {
                    self.need_bindless(l.span, "layout(bound_sampler)")?;
                    self.global_bound = true;
                }
                ("bindless_image", Some(Storage::Uniform)) => {
                    self.need_bindless(l.span, "layout(bindless_image)")?;
                    self.global_bindless_image = true;
                    if self.global_bound_image {
                        bail!(
                            self,
                            l.span,
                            "both bindless_image and bound_image are declared at global scope"
                        );
                    }
                }
                ("bound_image", Some(Storage::Uniform)) => {
                    self.need_bindless(l.span, "layout(bound_image)")?;
                    self.global_bound_image = true;
                    if self.global_bindless_image {
                        bail!(
                            self,
                            l.span,
                            "both bindless_image and bound_image are declared at global scope"
                        );
                    }
                }
                ("early_fragment_tests", Some(Storage::In)) if self.stage == Stage::Fragment => {
                    self.early_fragment_tests = true
                }
                ("local_size_x" | "local_size_y" | "local_size_z", Some(Storage::In)) => {
                    return self.local_size_layout(q);
                }
                ("std140" | "shared" | "packed" | "std430" | "row_major" | "column_major", _) => {}
                ("origin_upper_left" | "pixel_center_integer", _) => {
                    self.frag_coord_layout_misplaced(l)?
                }
                ("depth_any" | "depth_greater" | "depth_less" | "depth_unchanged", _) => {}
                // Checked by `xfb_global`.
                ("xfb_buffer" | "xfb_stride", Some(Storage::Out)) => {}
                (n, _) => bail!(self, l.span, "layout qualifier `{n}' is not valid here"),
            }
        }
        Ok(())
    }

    /// `out float gl_ClipDistance[n];` / `out float gl_CullDistance[n];` in a vertex shader,
    /// `in` in a fragment shader: the array's size, at most gl_MaxClipDistances /
    /// gl_MaxCullDistances (8), before any use; the two sizes together at most
    /// gl_MaxCombinedClipAndCullDistances (8, GL_ARB_cull_distance).
    pub(super) fn redeclare_distance(
        &mut self,
        storage: Option<Storage>,
        ty: &Type,
        d: &ast::Declarator,
    ) -> R<()> {
        const MAX: u32 = 8;
        let name = d.name.as_str();
        let cull = name == "gl_CullDistance";
        let (io, max) = match (self.stage, cull) {
            (Stage::Vertex | Stage::Geometry, false) => ("out", "gl_MaxClipDistances"),
            (Stage::Vertex | Stage::Geometry, true) => ("out", "gl_MaxCullDistances"),
            (_, false) => ("in", "gl_MaxClipDistances"),
            (_, true) => ("in", "gl_MaxCullDistances"),
        };
        let want = if io == "out" {
            Storage::Out
        } else {
            Storage::In
        };
        let n = match (storage, ty) {
            (Some(s), Type::Array(e, n)) if s == want && **e == Type::FLOAT => *n,
            _ => bail!(
                self,
                d.span,
                "`{name}' can only be redeclared as `{io} float {name}[n]'"
            ),
        };
        if n == 0 || n > MAX {
            bail!(
                self,
                d.span,
                "`{name}' array size must be 1 to {max} ({MAX})"
            );
        }
        if self.scopes[0].contains_key(name) {
            bail!(self, d.span, "`{name}' redeclared after it was used");
        }
        // The other array's size: its redeclared one, or the one its use gave it.
        let other = if cull {
            "gl_ClipDistance"
        } else {
            "gl_CullDistance"
        };
        let other_len = if cull {
            self.clip_distance_len
        } else {
            self.cull_distance_len
        }
        .or_else(|| {
            self.lookup_array_len(other)
                .filter(|_| self.scopes[0].contains_key(other))
        })
        .unwrap_or(0);
        if n + other_len > MAX {
            bail!(
                self,
                d.span,
                "the sizes of `gl_ClipDistance' and `gl_CullDistance' ({}) exceed \
                 gl_MaxCombinedClipAndCullDistances ({MAX})",
                n + other_len
            );
        }
        if cull {
            self.cull_distance_len = Some(n);
        } else {
            self.clip_distance_len = Some(n);
        }
        Ok(())
    }

    /// The size of gl_ClipDistance (`cull` false) or gl_CullDistance at its first use: the
    /// redeclared size, else what the other array's redeclared size leaves of the 8
    /// combined distances (GL_ARB_cull_distance; GLSL sizes an unsized built-in by its uses,
    /// softgl by what is left). `None` when nothing is left: the use is an error.
    fn distance_len(&self, cull: bool) -> Option<u32> {
        let (own, other) = if cull {
            (self.cull_distance_len, self.clip_distance_len)
        } else {
            (self.clip_distance_len, self.cull_distance_len)
        };
        match own {
            Some(n) => Some(n),
            None => Some(8 - other.unwrap_or(0)).filter(|&n| n > 0),
        }
    }

    /// `in vec4 gl_FragCoord;`, optionally with `layout(origin_upper_left)` and/or
    /// `layout(pixel_center_integer)` (GLSL 1.50 §4.3.8.1, GLSL 4.60 §4.4.1.3). The
    /// redeclaration changes no code, only how the rasterizer fills gl_FragCoord, so it
    /// records the layout for `ir::Module` and declares nothing: later uses still go
    /// through `builtin_var`.
    fn redeclare_frag_coord(
        &mut self,
        q: &Qualifiers,
        storage: Option<Storage>,
        ty: &Type,
        d: &ast::Declarator,
    ) -> R<()> {
        if self.version < 150 {
            bail!(
                self,
                d.span,
                "redeclaring `gl_FragCoord' requires GLSL 1.50"
            );
        }
        if storage != Some(Storage::In) || q.interp.is_some() || q.centroid || q.invariant {
            bail!(
                self,
                q.span,
                "`gl_FragCoord' can only be redeclared as `in vec4 gl_FragCoord'"
            );
        }
        if *ty != Type::vector(BaseType::Float, 4) {
            bail!(
                self,
                d.span,
                "`gl_FragCoord' must be redeclared as vec4, not {ty}"
            );
        }
        if d.init.is_some() {
            bail!(
                self,
                d.span,
                "input `gl_FragCoord' cannot have an initializer"
            );
        }
        let (mut upper_left, mut integer) = (false, false);
        for l in &q.layout {
            match l.name.as_str() {
                "origin_upper_left" if l.value.is_none() => upper_left = true,
                "pixel_center_integer" if l.value.is_none() => integer = true,
                "origin_upper_left" | "pixel_center_integer" => {
                    bail!(self, l.span, "layout qualifier `{}' takes no value", l.name)
                }
                n => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on `gl_FragCoord'"
                ),
            }
        }
        // GLSL 4.60 §4.4.1.3: every redeclaration must have the same qualifiers.
        match self.frag_coord_layout {
            Some(prev) if prev != (upper_left, integer) => bail!(
                self,
                d.span,
                "`gl_FragCoord' redeclared with different layout qualifiers"
            ),
            Some(_) => {}
            None => {
                // Whether a use came first is known only once main is lowered (lower_unit).
                self.frag_coord_layout = Some((upper_left, integer));
                self.frag_coord_redeclared_at = Some(d.span);
            }
        }
        Ok(())
    }

    /// `origin_upper_left` / `pixel_center_integer` anywhere but on a redeclaration of
    /// gl_FragCoord in a fragment shader (GLSL 1.50 §4.3.8.1).
    fn frag_coord_layout_misplaced(&mut self, l: &ast::LayoutQual) -> R<()> {
        if self.stage != Stage::Fragment {
            bail!(
                self,
                l.span,
                "layout qualifier `{}' is only valid in fragment shaders",
                l.name
            );
        }
        bail!(
            self,
            l.span,
            "layout qualifier `{}' is only valid on a redeclaration of `gl_FragCoord'",
            l.name
        );
    }

    pub fn need_bindless(&mut self, span: Span, what: &str) -> R<()> {
        if !self.bindless {
            bail!(self, span, "{what} requires GL_ARB_bindless_texture");
        }
        Ok(())
    }

    pub(super) fn layout_int(&mut self, l: &ast::LayoutQual) -> R<i64> {
        match l.value.as_ref().and_then(|e| self.const_eval(e)) {
            Some(c) => match c.as_index() {
                Some(v) if v >= 0 => Ok(v),
                _ => bail!(
                    self,
                    l.span,
                    "layout `{}' must be a non-negative integer",
                    l.name
                ),
            },
            None => bail!(
                self,
                l.span,
                "layout `{}' needs a constant integer value",
                l.name
            ),
        }
    }

    /// A `layout(binding = N)` of `count` consecutive units, below `limit` (GLSL 4.60
    /// §4.4.5/§4.4.6: binding through binding + count − 1 must be valid units; beyond is
    /// a compile-time error).
    pub(super) fn layout_binding(
        &mut self,
        l: &ast::LayoutQual,
        count: u64,
        limit: u32,
        limit_name: &str,
    ) -> R<u32> {
        let v = self.layout_int(l)?;
        if (v as u64).saturating_add(count.max(1)) > limit as u64 {
            bail!(
                self,
                l.span,
                "layout `binding' {v} (for {} units) is past {limit_name} ({limit})",
                count.max(1)
            );
        }
        Ok(v as u32)
    }

    /// A global variable declaration: plain global, const, uniform, in or out.
    pub(super) fn global_var(&mut self, vd: &ast::VarDecl) -> R<()> {
        let q = &vd.quals;
        let base = self.resolve_type(&vd.ty)?;
        if vd.decls.is_empty() {
            if base.contains_base(BaseType::AtomicUint) {
                return self.atomic_counter_default(q, vd.ty.span);
            }
            return Ok(());
        }
        let storage = match self.global_storage(q) {
            Ok(s) => s,
            Err(()) => {
                for d in &vd.decls {
                    self.declare_dummy(&d.name, &base);
                }
                return Err(());
            }
        };
        for d in &vd.decls {
            let init_len = match &d.init {
                Some(Expr {
                    kind: ExprKind::Call(_, args),
                    ..
                }) if d.dims.first().is_some_and(|x| x.is_none()) => Some(args.len() as u32),
                Some(Expr {
                    kind: ExprKind::InitList(items),
                    ..
                }) => Some(items.len() as u32),
                _ => None,
            };
            // GLSL 1.50 §4.3.4: geometry inputs are arrays of the input primitive's size.
            let gs_in = self.stage == Stage::Geometry && storage == Some(Storage::In);
            // GLSL 4.00 §4.3.4, §4.3.6: tessellation inputs (and control outputs) are arrays
            // of one element per vertex, unless `patch`.
            let is_in = storage == Some(Storage::In);
            let io = matches!(storage, Some(Storage::In) | Some(Storage::Out));
            if io && self.tess_patch(q, &d.name, d.span).is_err() {
                self.declare_dummy(&d.name, &base);
                continue;
            }
            let tess_arrayed = io && self.tess_arrayed(is_in, q.patch);
            if tess_arrayed {
                let declared = match d.dims.first() {
                    Some(Some(e)) => self.array_size(e).ok(),
                    _ => None,
                };
                if d.dims.is_empty() {
                    self.error(
                        d.span,
                        format!(
                            "per-vertex tessellation {} `{}' must be an array",
                            if is_in { "input" } else { "output" },
                            d.name
                        ),
                    );
                    self.declare_dummy(&d.name, &base);
                    continue;
                }
                let Ok(n) = self.tess_array_len(&d.name, is_in, declared, d.span) else {
                    self.declare_dummy(&d.name, &base);
                    continue;
                };
                let mut dims = d.dims.clone();
                dims.remove(0);
                let elem = self
                    .apply_dims(base.clone(), &dims, None, d.span)
                    .unwrap_or_else(|_| base.clone());
                let ty = Type::Array(Box::new(elem.clone()), n);
                let r = if struct_leaf_type(&elem).is_some() {
                    self.tess_struct_var(q, &elem, n, d, is_in)
                } else if is_in {
                    self.input_var(q, &ty, d, true).map(|_| ())
                } else {
                    self.output_var(q, &ty, d, true).map(|_| ())
                };
                if r.is_err() {
                    self.declare_dummy(&d.name, &ty);
                }
                continue;
            }
            let init_len = match d.dims.first() {
                Some(None) if gs_in => match self.geometry_input_len(&d.name, None, d.span) {
                    Ok(n) => Some(n),
                    Err(()) => {
                        self.declare_dummy(&d.name, &base);
                        continue;
                    }
                },
                _ => init_len,
            };
            let ty = self
                .apply_dims(base.clone(), &d.dims, init_len, d.span)
                .unwrap_or_else(|_| base.clone());
            if gs_in {
                let ok = match (&ty, d.dims.first()) {
                    (Type::Array(_, n), Some(Some(_))) => {
                        self.geometry_input_len(&d.name, Some(*n), d.span).is_ok()
                    }
                    (Type::Array(..), _) => true,
                    _ => {
                        self.error(
                            d.span,
                            format!("geometry shader input `{}' must be an array", d.name),
                        );
                        false
                    }
                };
                if !ok {
                    self.declare_dummy(&d.name, &ty);
                    continue;
                }
            }
            if (d.name == "gl_ClipDistance"
                || (d.name == "gl_CullDistance" && (self.version >= 450 || self.cull_distance)))
                && matches!(
                    self.stage,
                    Stage::Vertex | Stage::Geometry | Stage::Fragment
                )
            {
                // `out float gl_ClipDistance[n];` sizes the built-in (GLSL 4.60 §7.1.1);
                // gl_CullDistance likewise, and both are fragment inputs too.
                let _ = self.redeclare_distance(storage, &ty, d);
                continue;
            }
            if matches!(d.name.as_str(), "gl_Position" | "gl_PointSize")
                && matches!(self.stage, Stage::Vertex | Stage::Geometry)
            {
                // `out vec4 gl_Position;` / `out float gl_PointSize;` redeclare members of
                // gl_PerVertex (GLSL 1.50 §7.1, as Mesa accepts them): same type, nothing
                // to declare.
                let want = if d.name == "gl_Position" {
                    Type::vector(BaseType::Float, 4)
                } else {
                    Type::FLOAT
                };
                if storage != Some(Storage::Out) || ty != want {
                    self.error(
                        d.span,
                        format!(
                            "`{}' can only be redeclared as `out {want} {}'",
                            d.name, d.name
                        ),
                    );
                }
                continue;
            }
            if d.name == "gl_FragCoord" && self.stage == Stage::Fragment {
                // Errors are reported inside; there is nothing to declare either way.
                let _ = self.redeclare_frag_coord(q, storage, &ty, d);
                continue;
            }
            if self
                .globals
                .get(&d.name)
                .is_some_and(|g| g.unit != self.unit)
            {
                // Declared by an earlier compilation unit of the stage: the same variable.
                let _ = self.merge_global(q, storage, &ty, d);
                continue;
            }
            let r = match storage {
                Some(Storage::Uniform) if ty.contains_base(BaseType::AtomicUint) => {
                    self.atomic_counter_var(q, &ty, d)
                }
                Some(_) if ty.contains_base(BaseType::AtomicUint) => {
                    self.refuse_atomic_counter(&ty, d.span, "of this storage")
                }
                Some(Storage::Uniform) => self.uniform_var(q, &ty, d),
                // A bindless image passed between stages keeps its memory qualifiers.
                Some(Storage::In) => self
                    .qualify_image_type(&ty, q, false, d.span)
                    .and_then(|ty| self.input_var(q, &ty, d, true).map(|_| ())),
                Some(Storage::Out) => self
                    .qualify_image_type(&ty, q, false, d.span)
                    .and_then(|ty| self.output_var(q, &ty, d, true).map(|_| ())),
                Some(Storage::Shared) => self.shared_var(&ty, d),
                _ => {
                    for l in &q.layout {
                        self.error(l.span, format!("layout `{}' is not valid here", l.name));
                    }
                    self.local_var(q, &ty, d)
                }
            };
            if r.is_err() {
                self.declare_dummy(&d.name, &ty);
            } else if self.units.len() > 1 {
                let init = d.init.as_ref().map(|e| self.const_eval(e));
                self.globals.insert(
                    d.name.clone(),
                    GlobalOrigin {
                        unit: self.unit,
                        storage,
                        is_struct: false,
                        init,
                    },
                );
            }
        }
        Ok(())
    }

    /// The layout of a uniform, input or output declared again by a later unit: a qualifier
    /// given in either unit applies to the one variable; given in both, it must agree (a
    /// sampler's `binding`, `bindless_sampler` vs `bound_sampler`, a `location`), and
    /// inputs and outputs must have the same interpolation.
    fn merge_layout(
        &mut self,
        storage: Option<Storage>,
        q: &Qualifiers,
        sym: &VarSym,
        d: &ast::Declarator,
    ) -> R<()> {
        let n = &d.name;
        match (storage, &sym.root) {
            (Some(Storage::Uniform), Root::Uniform(off)) => {
                let (mut bindless, mut bound, mut binding) = (false, false, None);
                for l in &q.layout {
                    match l.name.as_str() {
                        "bindless_sampler" => bindless = true,
                        "bound_sampler" => bound = true,
                        "binding" => {
                            binding = Some(self.layout_binding(
                                l,
                                1,
                                ir::link::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
                                "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
                            )? as i32)
                        }
                        _ => {}
                    }
                }
                let (off, end) = (*off, off.saturating_add(sym.ty.words()));
                let mut conflict = None;
                for u in &mut self.uniforms {
                    if u.offset < off || u.offset >= end || !u.ty.base.is_sampler() {
                        continue;
                    }
                    if let Some(b) = binding {
                        match u.binding {
                            Some(x) if x != b => conflict = Some("`binding'"),
                            _ => u.binding = Some(b),
                        }
                    }
                    if (bindless && u.bound) || (bound && u.bindless) {
                        conflict = Some("bindless_sampler/bound_sampler");
                    }
                    u.bindless |= bindless;
                    u.bound |= bound;
                }
                if let Some(what) = conflict {
                    bail!(
                        self,
                        d.span,
                        "uniform `{n}' has a different {what} layout in another compilation unit"
                    );
                }
                Ok(())
            }
            (Some(dir @ (Storage::In | Storage::Out)), _) => {
                let loc = self.interface_location(q)?;
                let interp = self.interp(q);
                let var = if dir == Storage::In {
                    self.inputs.iter_mut().find(|v| v.name == *n)
                } else {
                    self.outputs
                        .iter_mut()
                        .map(|o| &mut o.var)
                        .find(|v| v.name == *n)
                };
                let Some(var) = var else {
                    return Ok(());
                };
                let mut bad = var.interpolation != interp;
                if let Some(l) = loc {
                    match var.location {
                        Some(x) if x != l => bad = true,
                        _ => var.location = Some(l),
                    }
                }
                if bad {
                    bail!(
                        self,
                        d.span,
                        "`{n}' has a different location or interpolation in another compilation unit"
                    );
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A global that an earlier compilation unit of the stage declared too: GLSL 4.60 §4.3,
    /// "All ... global variables with the same name in multiple compilation units of the
    /// same stage must match in type" (and in storage); an initializer given in two units
    /// must have the same value. The declaration is the earlier one; a plain global
    /// initialized only here is initialized here.
    fn merge_global(
        &mut self,
        q: &Qualifiers,
        storage: Option<Storage>,
        ty: &Type,
        d: &ast::Declarator,
    ) -> R<()> {
        let Some(prev) = self.globals.get(&d.name).cloned() else {
            return Ok(());
        };
        let n = &d.name;
        let sym = match self.scopes[0].get(n).cloned() {
            Some(Sym::Var(v)) if !prev.is_struct => v,
            _ => bail!(
                self,
                d.span,
                "`{n}' is a type in one compilation unit and a variable in another"
            ),
        };
        if prev.storage != storage {
            let (a, b) = (storage_name(prev.storage), storage_name(storage));
            bail!(
                self,
                d.span,
                "global `{n}' is declared `{a}' in one compilation unit and `{b}' in another"
            );
        }
        if sym.ty != *ty {
            let a = &sym.ty;
            bail!(
                self,
                d.span,
                "global `{n}' has type {a} in one compilation unit and {ty} in another (GLSL 4.60 §4.3: they must match)"
            );
        }
        self.merge_layout(storage, q, &sym, d)?;
        let Some(init) = &d.init else {
            return Ok(());
        };
        match (&prev.init, storage) {
            // The uniform's value at link: given in both units, it must be the same
            // (`set_uniform_init`).
            (_, Some(Storage::Uniform)) => {
                let Root::Uniform(offset) = sym.root else {
                    return Ok(());
                };
                let words = self.uniform_init(init, ty, n)?;
                self.set_uniform_init(offset, &words, n, d.span)
            }
            // Inputs and outputs have no initializers (their declarations say so).
            (_, Some(Storage::In | Storage::Out)) => Ok(()),
            (Some(p), _) => {
                let here = self.const_eval(init);
                if p.is_none() || here.is_none() || *p != here {
                    bail!(
                        self,
                        d.span,
                        "global `{n}' is initialized differently in different compilation units"
                    );
                }
                Ok(())
            }
            (None, _) => {
                // Only this unit initializes it: the initializer runs where this unit's
                // globals are initialized, before main (as every global initializer).
                let Root::Vars(vars) = &sym.root else {
                    return Ok(());
                };
                let v = self.expr_with_type(init, ty)?;
                let v = self.coerce(v, ty, init.span)?;
                for (dst, src) in vars.iter().zip(&v.vars) {
                    self.emit(Stmt::Assign {
                        dst: *dst,
                        op: Op::Copy(*src),
                    });
                }
                let here = self.const_eval(init);
                if let Some(g) = self.globals.get_mut(n) {
                    g.init = Some(here);
                }
                Ok(())
            }
        }
    }

    /// The effective storage of a global declaration (attribute/varying mapped to in/out).
    pub(super) fn global_storage(&mut self, q: &Qualifiers) -> R<Option<Storage>> {
        let mut storage = q.storage;
        match storage {
            Some(Storage::Attribute) => {
                if self.stage != Stage::Vertex {
                    bail!(
                        self,
                        q.span,
                        "`attribute' is only allowed in vertex shaders"
                    );
                }
                if !self.legacy_allowed() {
                    bail!(
                        self,
                        q.span,
                        "`attribute' is not allowed in GLSL {} core (use `in')",
                        self.version
                    );
                }
                storage = Some(Storage::In);
            }
            Some(Storage::Varying) => {
                if !self.legacy_allowed() {
                    bail!(
                        self,
                        q.span,
                        "`varying' is not allowed in GLSL {} core (use `in'/`out')",
                        self.version
                    );
                }
                storage = Some(if self.stage == Stage::Vertex {
                    Storage::Out
                } else {
                    Storage::In
                });
            }
            Some(Storage::In) | Some(Storage::Out) if self.version < 130 => {
                bail!(
                    self,
                    q.span,
                    "`in'/`out' at global scope require GLSL 1.30 (use attribute/varying)"
                );
            }
            Some(Storage::InOut) => bail!(self, q.span, "`inout' is not allowed at global scope"),
            Some(Storage::Shared) if self.stage == Stage::Compute => {}
            Some(Storage::In) | Some(Storage::Out) if self.stage == Stage::Compute => {
                bail!(
                    self,
                    q.span,
                    "compute shaders have no user-defined inputs or outputs"
                )
            }
            Some(Storage::Buffer) | Some(Storage::Shared) => {
                bail!(
                    self,
                    q.span,
                    "this storage qualifier is not supported at global scope"
                )
            }
            _ => {}
        }
        if q.interp.is_some() && !matches!(storage, Some(Storage::In) | Some(Storage::Out)) {
            bail!(
                self,
                q.span,
                "interpolation qualifiers apply only to in/out variables"
            );
        }
        if q.interp.is_some() && self.stage == Stage::Vertex && storage == Some(Storage::In) {
            bail!(
                self,
                q.span,
                "vertex shader inputs cannot have interpolation qualifiers"
            );
        }
        Ok(storage)
    }

    /// After a failed declaration, declares the name anyway so that later uses do not
    /// report it as undeclared too.
    pub(super) fn declare_dummy(&mut self, name: &str, ty: &Type) {
        let top = self.scopes.len() - 1;
        if name.starts_with("gl_") || self.scopes[top].contains_key(name) {
            return;
        }
        let vars: Rc<[Var]> = self.new_vars_for(ty).into();
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars),
            base: 0,
            writable: true,
            konst: None,
        };
        self.scopes[top].insert(name.to_string(), Sym::Var(Rc::new(sym)));
    }

    /// Declares a local or plain global variable, evaluating its initializer.
    pub fn local_var(&mut self, q: &Qualifiers, ty: &Type, d: &ast::Declarator) -> R<()> {
        let is_const = q.storage == Some(Storage::Const);
        if matches!(ty, Type::Void) {
            bail!(self, d.span, "`{}' declared as void", d.name);
        }
        self.refuse_atomic_counter(ty, d.span, "local or constant variables")?;
        if ty.contains_sampler() && !self.bindless {
            bail!(
                self,
                d.span,
                "sampler variables must be uniform or function parameters (without GL_ARB_bindless_texture)"
            );
        }
        // A bindless image variable keeps its format and memory qualifiers in its type, as
        // an image uniform and a parameter do (ARB_bindless_texture: images are l-values).
        let ty = &self.qualify_image_type(ty, q, false, d.span)?;
        if !matches!(q.storage, None | Some(Storage::Const)) {
            bail!(
                self,
                q.span,
                "storage qualifier not allowed on local variables"
            );
        }
        let vars: Rc<[Var]> = self.new_vars_for(ty).into();
        let mut konst = None;
        if let Some(init) = &d.init {
            let v = self.expr_with_type(init, ty)?;
            let v = self.coerce(v, ty, init.span)?;
            for (dst, src) in vars.iter().zip(&v.vars) {
                self.emit(Stmt::Assign {
                    dst: *dst,
                    op: Op::Copy(*src),
                });
            }
            if is_const {
                konst = self
                    .const_eval(init)
                    .and_then(|c| consts::convert_to(c, ty));
            }
        } else if is_const {
            bail!(
                self,
                d.span,
                "const variable `{}' must be initialized",
                d.name
            );
        }
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars),
            base: 0,
            writable: !is_const,
            konst,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    pub(super) fn uniform_var(&mut self, q: &Qualifiers, ty: &Type, d: &ast::Declarator) -> R<()> {
        let ty = &self.qualify_image_type(ty, q, true, d.span)?;
        let (mut bindless, mut bound, mut binding) = (false, false, None);
        let mut location = None;
        let image = super::image::image_of(ty).is_some();
        for l in &q.layout {
            match l.name.as_str() {
                // Checked by `qualify_image_type`.
                n if crate::sampler::storage_image::ImageFormat::from_glsl(n).is_some() => {}
                "bindless_image" | "bound_image" => {
                    self.need_bindless(l.span, &format!("layout({})", l.name))?;
                    if !image {
                        bail!(self, l.span, "layout({}) applies only to images", l.name);
                    }
                    if l.name == "bindless_image" {
                        bindless = true
                    } else {
                        bound = true
                    }
                }
                "binding" if image => {
                    let units = match ty {
                        Type::Array(_, n) => *n as u64,
                        _ => 1,
                    };
                    binding = Some(self.layout_binding(
                        l,
                        units,
                        super::builtin_constants::MAX_IMAGE_UNITS,
                        "GL_MAX_IMAGE_UNITS",
                    )? as i32)
                }
                "bindless_sampler" | "bound_sampler" => {
                    self.need_bindless(l.span, &format!("layout({})", l.name))?;
                    if !ty.contains_sampler() || image {
                        bail!(self, l.span, "layout({}) applies only to samplers", l.name);
                    }
                    if l.name == "bindless_sampler" {
                        bindless = true
                    } else {
                        bound = true
                    }
                }
                "binding" => {
                    let units = match ty {
                        Type::Array(_, n) => *n as u64,
                        _ => 1,
                    };
                    binding = Some(self.layout_binding(
                        l,
                        units,
                        ir::link::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
                        "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
                    )? as i32)
                }
                "location" => location = Some(self.uniform_location(l)?),
                n => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on a uniform"
                ),
            }
        }
        if bindless && bound {
            bail!(
                self,
                d.span,
                "uniform `{}' cannot be both bindless_sampler and bound_sampler",
                d.name
            );
        }
        if d.init.is_some() && ty.contains_sampler() {
            // ARB_bindless_texture, "Replace Section 4.1.7 (Samplers)": "As uniforms in the
            // default uniform block, samplers may be initialized only with the OpenGL API;
            // they cannot be declared with an initializer in a shader."
            bail!(
                self,
                d.span,
                "sampler uniform `{}' cannot have an initializer (samplers are set only through the API)",
                d.name
            );
        }
        let init = match &d.init {
            Some(e) => Some(self.uniform_init(e, ty, &d.name)?),
            None => None,
        };
        let offset = self.uniform_words;
        self.uniform_words = self.uniform_words.saturating_add(ty.words());
        let mut leaves = Vec::new();
        uniform_leaves(&d.name, ty, offset, &mut leaves);
        // Leaves take consecutive locations from the declared one, element by element.
        let mut next_location = location;
        for (name, vt, len, off) in leaves {
            let location = next_location;
            next_location = next_location.map(|l| l.saturating_add(len.unwrap_or(1)));
            self.uniforms.push(UniformDecl {
                name,
                ty: vt,
                array_len: len,
                offset: off,
                stride: vt.words(),
                bindless: bindless && vt.base.is_sampler(),
                bound: bound && vt.base.is_sampler(),
                binding: if vt.base.is_sampler() { binding } else { None },
                init: None,
                location,
            });
        }
        if let Some(words) = init {
            self.set_uniform_init(offset, &words, &d.name, d.span)?;
        }
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Uniform(offset),
            base: 0,
            writable: false,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    /// `layout(location = N)` of a default-block uniform (GLSL 4.30, or GLSL 3.30 and
    /// GL_ARB_explicit_uniform_location): N below GL_MAX_UNIFORM_LOCATIONS.
    fn uniform_location(&mut self, l: &ast::LayoutQual) -> R<u32> {
        if self.version < 430 && !self.explicit_uniform_location {
            bail!(
                self,
                l.span,
                "layout(location) on a uniform requires GLSL 4.30 or GL_ARB_explicit_uniform_location"
            );
        }
        let n = self.layout_int(l)?;
        let max = ir::link::MAX_UNIFORM_LOCATIONS;
        if n >= i64::from(max) {
            bail!(
                self,
                l.span,
                "uniform location {n} is not below GL_MAX_UNIFORM_LOCATIONS ({max})"
            );
        }
        Ok(n as u32)
    }

    /// The words a uniform's initializer gives it at link (GLSL 4.60 §4.3.5, from GLSL
    /// 1.20 on): the initializer is checked as any variable's, and must be a constant
    /// expression (`consts`), converted to the uniform's type.
    fn uniform_init(&mut self, init: &Expr, ty: &Type, name: &str) -> R<Vec<u32>> {
        if self.version < 120 {
            bail!(
                self,
                init.span,
                "uniform `{name}' cannot have an initializer before GLSL 1.20"
            );
        }
        // Type errors as any initializer reports them; the statements are dropped, the
        // value is folded.
        let mut value = None;
        let (body, r) = self.collect(|s| {
            let v = s.expr_with_type(init, ty)?;
            value = Some(s.coerce(v, ty, init.span)?);
            Ok(())
        });
        r?;
        let folded = self
            .const_eval(init)
            .and_then(|c| consts::convert_to(c, ty))
            .map(|c| c.vals.iter().map(|v| v.bits()).collect())
            .or_else(|| {
                // Doubles and built-in calls: the lowered statements, evaluated
                // (`const_eval_lowered`).
                let v = value.filter(|_| self.constant_shaped(init, 0))?;
                let mut all = self.prologue.clone();
                all.extend(body);
                crate::ir::fold::eval_constant(&self.func.vars, &all, &v.vars)
            });
        match folded {
            Some(words) => Ok(words),
            None => bail!(
                self,
                init.span,
                "initializer of uniform `{name}' is not a constant expression"
            ),
        }
    }

    /// Gives the default-block uniforms of the variable at word `offset` their parts of
    /// `words` (its initializer), or checks them against the initializer an earlier
    /// compilation unit gave (GLSL 4.60 §4.3: globals of one name in several units are
    /// one variable, and initializers given twice must agree).
    fn set_uniform_init(&mut self, offset: u32, words: &[u32], name: &str, span: Span) -> R<()> {
        let end = offset + words.len() as u32;
        let mut differs = false;
        for u in self.uniforms.iter_mut() {
            if !(offset..end).contains(&u.offset) {
                continue;
            }
            let at = (u.offset - offset) as usize;
            let len = (u.stride * u.array_len.unwrap_or(1)) as usize;
            let Some(part) = words.get(at..at + len) else {
                continue;
            };
            match &u.init {
                Some(prev) => differs |= prev.as_slice() != part,
                None => u.init = Some(part.to_vec()),
            }
        }
        if differs {
            bail!(
                self,
                span,
                "uniform `{name}' is initialized differently in different compilation units"
            );
        }
        Ok(())
    }

    /// A member of an input block declared as an input of type `ty` named `Block.member`
    /// (not declared by itself): its vars.
    pub(super) fn block_member_input(
        &mut self,
        b: &ast::BlockDecl,
        q: &Qualifiers,
        name: &str,
        ty: &Type,
        span: Span,
    ) -> R<Rc<[Var]>> {
        let d = ast::Declarator {
            name: format!("{}.{}", b.name, name),
            dims: Vec::new(),
            init: None,
            span,
        };
        self.input_var(q, ty, &d, false)
    }

    /// The output twin of `block_member_input` (a control shader's per-vertex output
    /// block).
    pub(super) fn block_member_output(
        &mut self,
        b: &ast::BlockDecl,
        q: &Qualifiers,
        name: &str,
        ty: &Type,
        span: Span,
    ) -> R<Rc<[Var]>> {
        let d = ast::Declarator {
            name: format!("{}.{}", b.name, name),
            dims: Vec::new(),
            init: None,
            span,
        };
        self.output_var(q, ty, &d, false)
    }

    pub(super) fn interface_location(&mut self, q: &Qualifiers) -> R<Option<u32>> {
        let mut loc = None;
        for l in &q.layout {
            match l.name.as_str() {
                "location" => {
                    if self.version < 330 && !self.explicit_location {
                        bail!(
                            self,
                            l.span,
                            "explicit location requires GLSL 3.30 or GL_ARB_explicit_attrib_location"
                        );
                    }
                    loc = Some(self.layout_int(l)? as u32);
                }
                "index" | "component" => {
                    self.layout_int(l)?;
                }
                // A geometry output's vertex stream (`output_stream` reads it).
                "stream" if self.stage == Stage::Geometry && q.storage == Some(Storage::Out) => {}
                // Transform feedback qualifiers of an output (`output_xfb` reads them).
                "xfb_buffer" | "xfb_offset" | "xfb_stride" if q.storage == Some(Storage::Out) => {}
                "origin_upper_left" | "pixel_center_integer" => {
                    self.frag_coord_layout_misplaced(l)?
                }
                n => bail!(self, l.span, "layout qualifier `{n}' is not valid here"),
            }
        }
        Ok(loc)
    }

    /// `layout(index = N)` of a fragment output (GLSL 4.60 §4.4.2.3, ARB_blend_func_extended):
    /// 0 or 1, 0 when absent; other stages' outputs have index 0.
    fn output_index(&mut self, q: &Qualifiers) -> R<u32> {
        let Some(l) = q.layout.iter().find(|l| l.name == "index") else {
            return Ok(0);
        };
        let n = self.layout_int(l)? as u32;
        if self.stage != Stage::Fragment {
            bail!(
                self,
                l.span,
                "`index' is only valid on fragment shader outputs"
            );
        }
        if n > 1 {
            bail!(self, l.span, "output index {n} is not 0 or 1");
        }
        Ok(n)
    }

    pub(super) fn interp(&self, q: &Qualifiers) -> Interpolation {
        match q.interp {
            Some(InterpQual::Flat) => Interpolation::Flat,
            Some(InterpQual::NoPerspective) => Interpolation::NoPerspective,
            _ => Interpolation::Smooth,
        }
    }

    pub(super) fn check_interface_type(
        &mut self,
        ty: &Type,
        q: &Qualifiers,
        span: Span,
        dir: &str,
    ) -> R<()> {
        let (elem, len) = match ty {
            Type::Array(e, n) => (&**e, Some(*n)),
            t => (t, None),
        };
        let _ = len;
        // A tessellation stage's per-vertex array may hold arrays (`in vec4 v[][2];`).
        let elem = match elem {
            Type::Array(e, _) if self.is_tess() => &**e,
            e => e,
        };
        let Some(b) = elem.basic() else {
            bail!(self, span, "{dir} variables of this type are not supported");
        };
        if b.base == BaseType::Bool {
            bail!(self, span, "{dir} variables cannot be bool");
        }
        let vertex_in = self.stage == Stage::Vertex && dir == "input";
        if b.base.is_sampler() {
            self.need_bindless(span, &format!("a sampler {dir} variable"))?;
            if !vertex_in && q.interp != Some(InterpQual::Flat) {
                bail!(
                    self,
                    span,
                    "sampler {dir} variables must be qualified `flat'"
                );
            }
            if self.stage == Stage::Fragment && dir == "output" {
                bail!(self, span, "fragment outputs cannot be samplers");
            }
        }
        if b.base == BaseType::Uint64 && !vertex_in && q.interp != Some(InterpQual::Flat) {
            bail!(
                self,
                span,
                "64-bit integer {dir} variables must be qualified `flat'"
            );
        }
        if self.stage == Stage::Fragment
            && dir == "input"
            && matches!(b.base, BaseType::Int | BaseType::Uint)
            && q.interp != Some(InterpQual::Flat)
        {
            bail!(
                self,
                span,
                "integer fragment inputs must be qualified `flat' (GLSL 4.60 §4.3.4)"
            );
        }
        if b.base == BaseType::Double
            && self.stage == Stage::Vertex
            && dir == "input"
            && self.version < 410
        {
            // ARB_gpu_shader_fp64: "Vertex shader inputs can only be single-precision";
            // double attributes came with ARB_vertex_attrib_64bit / GLSL 4.10.
            bail!(
                self,
                span,
                "double vertex shader inputs require GLSL 4.10 (GL_ARB_gpu_shader_fp64 allows none)"
            );
        }
        if b.base == BaseType::Double && self.stage == Stage::Fragment {
            // GLSL 4.00 §4.3.4 / §4.3.6: double fragment inputs are flat, and fragment
            // outputs have no double types.
            if dir == "output" {
                bail!(self, span, "fragment outputs cannot be double");
            }
            if q.interp != Some(InterpQual::Flat) {
                bail!(
                    self,
                    span,
                    "double fragment inputs must be qualified `flat' (GLSL 4.60 §4.3.4)"
                );
            }
        }
        if self.stage == Stage::Fragment && dir == "output" && b.cols > 1 {
            bail!(self, span, "fragment outputs cannot be matrices");
        }
        Ok(())
    }

    pub(super) fn input_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        declare: bool,
    ) -> R<Rc<[Var]>> {
        // GLSL 1.30 §4.3.4 first allows struct inputs (1.10/1.20 varyings cannot be).
        if self.stage == Stage::Fragment && self.version >= 130 && struct_leaf_type(ty).is_some() {
            return self.struct_input_var(q, ty, d, declare);
        }
        let loc = self.interface_location(q)?;
        self.check_interface_type(ty, q, d.span, "input")?;
        if d.init.is_some() {
            bail!(
                self,
                d.span,
                "input `{}' cannot have an initializer",
                d.name
            );
        }
        let vars: Vec<Var> = self.new_vars_for(ty);
        let (elem, len) = match ty {
            Type::Array(e, n) => ((**e).clone(), Some(*n)),
            t => (t.clone(), None),
        };
        // The element of a tessellation per-vertex array may be an array itself: its words
        // are the element's, its type the innermost one (as the other stage declares it).
        let b = match &elem {
            Type::Array(e, _) => e.basic(),
            e => e.basic(),
        }
        .unwrap_or(vt(BaseType::Float, 1, 1));
        let mut kinds = Vec::new();
        ty.word_kinds(&mut kinds);
        let slot = self.next_input_slot;
        let words = if self.stage == Stage::Vertex {
            // Vertex inputs: 4 words per location unit, one unit per matrix column, 64-bit
            // vectors of 3 or 4 components take two units (GL 4.5 §11.1.1).
            let col_words = b.words() / b.cols as u32;
            let units_per_col = col_words.div_ceil(4);
            let units_per_elem = units_per_col * b.cols as u32;
            let mut w = 0usize;
            for e in 0..len.unwrap_or(1) {
                for c in 0..b.cols as u32 {
                    for cw in 0..col_words {
                        let s = slot + ((e * units_per_elem + c * units_per_col) * 4) + cw;
                        if let Some(&v) = vars.get(w) {
                            self.prologue.push(Stmt::Assign {
                                dst: v,
                                op: Op::Input(s),
                            });
                        }
                        w += 1;
                    }
                }
            }
            units_per_elem * len.unwrap_or(1) * 4
        } else {
            for (i, v) in vars.iter().enumerate() {
                self.prologue.push(Stmt::Assign {
                    dst: *v,
                    op: Op::Input(slot + i as u32),
                });
            }
            ty.words()
        };
        self.next_input_slot += words;
        self.inputs.push(InterfaceVar {
            name: d.name.clone(),
            ty: b,
            array_len: len,
            location: loc,
            slot,
            words,
            interpolation: self.interp(q),
            builtin: None,
        });
        let vars: Rc<[Var]> = vars.into();
        if declare {
            self.declare_interface_var(d, ty, &vars, false)?;
        }
        Ok(vars)
    }

    pub(super) fn output_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        declare: bool,
    ) -> R<Rc<[Var]>> {
        // A geometry output's vertex stream (`geometry.rs`); `in_block`: a block member
        // (`io_block` declares them with the block's stream as the default).
        let in_block = d.name.contains('.');
        let stream = self.output_stream(q, in_block)?;
        // Its transform feedback buffer and offset (`xfb.rs`).
        let (xfb_buffer, xfb_offset) = self.output_xfb(q, in_block)?;
        let first = self.outputs.len();
        let vars = if self.stage != Stage::Fragment
            && self.version >= 130
            && struct_leaf_type(ty).is_some()
        {
            self.struct_output_var(q, ty, d, declare)?
        } else {
            self.basic_output_var(q, ty, d, declare)?
        };
        self.set_output_streams(first, stream);
        self.set_output_xfb(first, xfb_buffer, xfb_offset);
        Ok(vars)
    }

    /// `output_var` of a type that is not a struct (or a fragment output).
    fn basic_output_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        declare: bool,
    ) -> R<Rc<[Var]>> {
        let loc = self.interface_location(q)?;
        let dual = self.output_index(q)? == 1;
        self.check_interface_type(ty, q, d.span, "output")?;
        if d.init.is_some() {
            bail!(
                self,
                d.span,
                "output `{}' cannot have an initializer",
                d.name
            );
        }
        if self.stage == Stage::Fragment {
            self.user_frag_output.get_or_insert(d.span);
        }
        let vars: Rc<[Var]> = self.new_vars_for(ty).into();
        let (elem, len) = match ty {
            Type::Array(e, n) => ((**e).clone(), Some(*n)),
            t => (t.clone(), None),
        };
        // The element of a tessellation per-vertex array may be an array itself: its words
        // are the element's, its type the innermost one (as the other stage declares it).
        let b = match &elem {
            Type::Array(e, _) => e.basic(),
            e => e.basic(),
        }
        .unwrap_or(vt(BaseType::Float, 1, 1));
        self.outputs.push(PendingOutput {
            var: InterfaceVar {
                name: d.name.clone(),
                ty: b,
                array_len: len,
                location: loc,
                slot: 0,
                words: ty.words(),
                interpolation: self.interp(q),
                builtin: dual.then_some(BuiltinOutput::DualSourceColor),
            },
            vars: vars.clone(),
        });
        if declare {
            self.declare_interface_var(d, ty, &vars, true)?;
        }
        Ok(vars)
    }

    /// Reads the next input slots into `vars` at the start of `main` (one word each) and
    /// returns the first slot.
    pub(super) fn read_input_words(&mut self, vars: &[Var]) -> u32 {
        let slot = self.next_input_slot;
        for (i, v) in vars.iter().enumerate() {
            self.prologue.push(Stmt::Assign {
                dst: *v,
                op: Op::Input(slot + i as u32),
            });
        }
        self.next_input_slot += vars.len() as u32;
        slot
    }

    /// Declares the input or output `d` of type `ty` over `vars`.
    fn declare_interface_var(
        &mut self,
        d: &ast::Declarator,
        ty: &Type,
        vars: &Rc<[Var]>,
        writable: bool,
    ) -> R<()> {
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars.clone()),
            base: 0,
            writable,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    /// The leaves of a struct-typed input or output (`what`), after the checks both
    /// share: no initializer, and every leaf an interface type; with each leaf's location
    /// when the variable has `layout(location = L)`: the leaves take consecutive locations
    /// from L in declaration order, each as many as a variable of its type would (GLSL
    /// 4.60 §4.4.1: a matrix one per column, an array one per element).
    fn struct_leaves_checked(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        what: &str,
    ) -> R<Vec<StructLeaf>> {
        let mut next = self.interface_location(q)?;
        if d.init.is_some() {
            bail!(
                self,
                d.span,
                "{what} `{}' cannot have an initializer",
                d.name
            );
        }
        let mut leaves = Vec::new();
        struct_leaves(&d.name, ty, 0, &mut leaves);
        for (_, leaf, _) in &leaves {
            self.check_interface_type(leaf, q, d.span, what)?;
        }
        Ok(leaves
            .into_iter()
            .map(|(name, leaf, at)| {
                let location = next;
                let (elem, len) = leaf_shape(&leaf);
                // Locations of one element: its columns, each a vec4's worth of words.
                let cols = u32::from(elem.cols.max(1));
                let per_elem = elem.words().div_ceil(cols).div_ceil(4) * cols;
                next = next.map(|l| l + per_elem * len.unwrap_or(1));
                (name, leaf, at, location)
            })
            .collect())
    }

    /// A fragment input of struct type, or an array of structs (GLSL 1.50 §4.3.4): each
    /// leaf member is an input of its own, named as `struct_output_var` names the vertex
    /// (or geometry) stage's leaves, so the link matches them leaf by leaf.
    fn struct_input_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        declare: bool,
    ) -> R<Rc<[Var]>> {
        let leaves = self.struct_leaves_checked(q, ty, d, "input")?;
        let vars: Rc<[Var]> = self.new_vars_for(ty).into();
        let slot = self.read_input_words(&vars);
        for (name, leaf, at, location) in leaves {
            let (elem, len) = leaf_shape(&leaf);
            self.inputs.push(InterfaceVar {
                name,
                ty: elem,
                array_len: len,
                location,
                slot: slot + at,
                words: leaf.words(),
                interpolation: self.interp(q),
                builtin: None,
            });
        }
        if declare {
            self.declare_interface_var(d, ty, &vars, false)?;
        }
        Ok(vars)
    }

    /// A per-vertex tessellation input or control output of `n` elements of struct type
    /// `elem` (or arrays of it), `in S s[];` (GLSL 4.00 §4.3.4): each leaf member is a
    /// per-vertex interface variable of its own, named as the stage before names its leaf
    /// without the vertex index (`s.v`, as a vertex shader's `out S s;` and a control
    /// shader's `out S s[];` name it), its words vertex after vertex. The array's vars
    /// (vertex after vertex, each a whole struct) are gathered from those inputs, or into
    /// those outputs.
    fn tess_struct_var(
        &mut self,
        q: &Qualifiers,
        elem: &Type,
        n: u32,
        d: &ast::Declarator,
        is_in: bool,
    ) -> R<()> {
        let dir = if is_in { "input" } else { "output" };
        let leaves = self.struct_leaves_checked(q, elem, d, dir)?;
        let ty = Type::Array(Box::new(elem.clone()), n);
        let vars: Rc<[Var]> = self.new_vars_for(&ty).into();
        let elem_words = elem.words();
        for (name, leaf, at, location) in leaves {
            let (base, _) = leaf_shape(&leaf);
            let leaf_words = leaf.words();
            let all = &vars;
            let gathered: Vec<Var> = (0..n)
                .flat_map(|j| (0..leaf_words).map(move |w| all[(j * elem_words + at + w) as usize]))
                .collect();
            let var = InterfaceVar {
                name,
                ty: base,
                array_len: Some(n),
                location,
                slot: 0,
                words: n * leaf_words,
                interpolation: self.interp(q),
                builtin: None,
            };
            if is_in {
                let slot = self.read_input_words(&gathered);
                self.inputs.push(InterfaceVar { slot, ..var });
            } else {
                self.outputs.push(PendingOutput {
                    var,
                    vars: gathered.into(),
                });
            }
        }
        self.declare_interface_var(d, &ty, &vars, !is_in)
    }

    /// A vertex or geometry output of struct type, or an array of structs (GLSL 1.50
    /// §4.3.6): each leaf member is an output of its own, named as transform feedback and
    /// reflection name it (`v.a`, `v[1].b.c`), its words in the struct's order; a fragment
    /// input of the same struct has the same leaves (`struct_input_var`).
    fn struct_output_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
        declare: bool,
    ) -> R<Rc<[Var]>> {
        let leaves = self.struct_leaves_checked(q, ty, d, "output")?;
        let vars: Rc<[Var]> = self.new_vars_for(ty).into();
        for (name, leaf, at, location) in leaves {
            let (elem, len) = leaf_shape(&leaf);
            let words = leaf.words();
            self.outputs.push(PendingOutput {
                var: InterfaceVar {
                    name,
                    ty: elem,
                    array_len: len,
                    location,
                    slot: 0,
                    words,
                    interpolation: self.interp(q),
                    builtin: None,
                },
                vars: vars[at as usize..(at + words) as usize].into(),
            });
        }
        if declare {
            self.declare_interface_var(d, ty, &vars, true)?;
        }
        Ok(vars)
    }

    /// `layout(std140, binding = N) uniform Name { ... } inst;` (GL 4.5 §7.6.2.2).
    /// `out Block { ... } inst;` / `in Block { ... } inst;` between the vertex and fragment
    /// stages (GLSL 4.60 §4.3.9): each member is an interface variable named
    /// `Block.member`, as GL reflection names it; the instance is a struct over their vars.
    fn io_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        if self.version < 150 {
            bail!(self, b.span, "in/out interface blocks require GLSL 1.50");
        }
        if b.name == "gl_PerVertex" {
            return self.redeclare_per_vertex(b);
        }
        let is_in = b.quals.storage == Some(Storage::In);
        if (self.stage == Stage::Vertex && is_in) || (self.stage == Stage::Fragment && !is_in) {
            bail!(
                self,
                b.span,
                "interface blocks are supported between the vertex and fragment stages only"
            );
        }
        // Per-vertex blocks: geometry inputs, tessellation inputs and control outputs.
        if (self.stage == Stage::Geometry && is_in) || self.tess_arrayed(is_in, b.quals.patch) {
            return self.geometry_input_block(b);
        }
        if b.instance.as_ref().is_some_and(|(_, d)| !d.is_empty()) {
            bail!(self, b.span, "arrays of interface blocks are not supported");
        }
        // An output block's members take its vertex stream (GLSL 4.00 §4.3.8.2).
        let default_stream = self.geometry_stream;
        if !is_in {
            self.geometry_stream = self.output_stream(&b.quals, false)?;
            self.begin_xfb_block(b)?;
        }
        let mut members: Vec<(String, Type)> = Vec::new();
        let mut all_vars: Vec<Var> = Vec::new();
        let mut direct: Vec<(String, Type, Rc<[Var]>, Span)> = Vec::new();
        // `layout(location = N)` on the block numbers its members from N on, each after
        // the locations of the one before, unless a member gives its own (GLSL 4.60
        // §4.4.1; ARB_separate_shader_objects matches blocks of two programs by them).
        let mut next_location = self.interface_location(&b.quals)?;
        for m in &b.members {
            let mt = self.resolve_type(&m.ty)?;
            let mut q = m.quals.clone();
            q.storage = b.quals.storage;
            if q.interp.is_none() {
                q.interp = b.quals.interp;
            }
            for (n, dims, sp) in &m.names {
                let t = self.apply_dims(mt.clone(), dims, None, *sp)?;
                let d = ast::Declarator {
                    name: format!("{}.{}", b.name, n),
                    dims: Vec::new(),
                    init: None,
                    span: *sp,
                };
                let declared = (self.inputs.len(), self.outputs.len());
                let vars = if is_in {
                    self.input_var(&q, &t, &d, false)?
                } else {
                    self.output_var(&q, &t, &d, false)?
                };
                // The member's one interface variable (a struct member has several and
                // takes no location from its block).
                let var = match (
                    is_in,
                    self.inputs.len() - declared.0,
                    self.outputs.len() - declared.1,
                ) {
                    (true, 1, _) => self.inputs.last_mut(),
                    (false, _, 1) => self.outputs.last_mut().map(|o| &mut o.var),
                    _ => None,
                };
                if let (Some(var), Some(block_loc)) = (var, next_location) {
                    let at = *var.location.get_or_insert(block_loc);
                    let cols = u32::from(var.ty.cols.max(1));
                    let per_col = (var.ty.words() / cols).div_ceil(4);
                    next_location = Some(at + var.array_len.unwrap_or(1) * cols * per_col);
                }
                all_vars.extend(vars.iter().copied());
                members.push((n.clone(), t.clone()));
                direct.push((n.clone(), t, vars, *sp));
            }
        }
        self.geometry_stream = default_stream;
        self.end_xfb_block();
        match &b.instance {
            Some((inst, _)) => {
                let def = Rc::new(StructDef {
                    name: b.name.clone(),
                    members,
                });
                let sym = VarSym {
                    ty: Type::Struct(def),
                    root: Root::Vars(all_vars.into()),
                    base: 0,
                    writable: !is_in,
                    konst: None,
                };
                self.declare(inst, b.span, Sym::Var(Rc::new(sym)))
            }
            None => {
                for (n, t, vars, sp) in direct {
                    let sym = VarSym {
                        ty: t,
                        root: Root::Vars(vars),
                        base: 0,
                        writable: !is_in,
                        konst: None,
                    };
                    self.declare(&n, sp, Sym::Var(Rc::new(sym)))?;
                }
                Ok(())
            }
        }
    }

    pub(super) fn uniform_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        match b.quals.storage {
            Some(Storage::Uniform) => {}
            Some(Storage::Buffer) => return self.storage_block(b),
            Some(Storage::In) | Some(Storage::Out) => return self.io_block(b),
            _ => bail!(self, b.span, "interface block needs a storage qualifier"),
        }
        if self.version < 140 && !self.uniform_buffer_object {
            bail!(
                self,
                b.span,
                "uniform blocks require GLSL 1.40 or GL_ARB_uniform_buffer_object"
            );
        }
        let mut binding = None;
        let mut row_major = false;
        for l in &b.quals.layout {
            match l.name.as_str() {
                "std140" | "shared" | "packed" | "column_major" => {}
                "row_major" => row_major = true,
                "binding" => binding = Some((self.layout_int(l)? as u32, l)),
                "std430" => bail!(self, l.span, "std430 applies only to shader storage blocks"),
                n => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on a block"
                ),
            }
        }
        let mut members: Vec<(String, Type)> = Vec::new();
        for m in &b.members {
            for l in &m.quals.layout {
                match l.name.as_str() {
                    "column_major" => {}
                    "row_major" => row_major = true,
                    n => bail!(
                        self,
                        l.span,
                        "layout qualifier `{n}' is not valid on a member"
                    ),
                }
            }
            let mt = self.resolve_type(&m.ty)?;
            self.refuse_atomic_counter(&mt, m.ty.span, "members of blocks")?;
            for (n, dims, sp) in &m.names {
                let t = self.apply_dims(mt.clone(), dims, None, *sp)?;
                if t.contains_sampler() {
                    self.need_bindless(*sp, "a sampler in a uniform block")?;
                }
                if members.iter().any(|(x, _)| x == n) {
                    bail!(self, *sp, "duplicate block member `{n}'");
                }
                members.push((n.clone(), t));
            }
        }
        let def = Rc::new(StructDef {
            name: b.name.clone(),
            members,
        });
        let (_, size) = types::std140_align_size(&Type::Struct(def.clone()), row_major);
        let offs = types::std140_member_offsets(&def, row_major);
        let mut reflected = Vec::new();
        for ((n, t), off) in def.members.iter().zip(&offs) {
            let prefix = match &b.instance {
                Some(_) => format!("{}.{}", b.name, n),
                None => n.clone(),
            };
            block_leaves(
                &prefix,
                t,
                *off,
                types::BlockLayout::std140(row_major),
                &mut reflected,
            );
        }
        let dims = self.block_array_dims(b)?;
        let count = dims.as_ref().map(|d| d.iter().product::<u32>());
        let binding = match binding {
            Some((_, l)) => Some(self.layout_binding(
                l,
                count.unwrap_or(1) as u64,
                ir::link::MAX_UNIFORM_BUFFER_BINDINGS,
                "GL_MAX_UNIFORM_BUFFER_BINDINGS",
            )?),
            None => None,
        };
        let key = format!("block {}", b.name);
        if self.globals.get(&key).is_some_and(|g| g.unit != self.unit) {
            // An earlier compilation unit declared this block: it must be the same block
            // (GLSL 4.60 §4.3.9: members, layout, instance name), and is then that block.
            let decls: Vec<ir::BlockDecl> = (0..count.unwrap_or(1))
                .map(|k| ir::BlockDecl {
                    name: block_element_name(&b.name, dims.as_deref(), k),
                    binding: binding.map(|x| x + k),
                    size: types::round_up(size, 16),
                    members: reflected.clone(),
                })
                .collect();
            let same = self
                .blocks
                .iter()
                .position(|x| x.name == decls[0].name)
                .is_some_and(|i| self.blocks.get(i..i + decls.len()) == Some(&decls[..]));
            let inst_here = b.instance.as_ref().map(|(n, _)| n.as_str());
            let inst_before = self.block_instances.get(&b.name).map(|x| x.as_deref());
            if !same || inst_before != Some(inst_here) {
                bail!(
                    self,
                    b.span,
                    "uniform block `{}' differs between compilation units",
                    b.name
                );
            }
            return Ok(());
        }
        if self.units.len() > 1 {
            self.globals.insert(
                key,
                GlobalOrigin {
                    unit: self.unit,
                    storage: Some(Storage::Uniform),
                    is_struct: false,
                    init: None,
                },
            );
            self.block_instances
                .insert(b.name.clone(), b.instance.as_ref().map(|(n, _)| n.clone()));
        }
        let first = self.blocks.len() as u32;
        for k in 0..count.unwrap_or(1) {
            let name = block_element_name(&b.name, dims.as_deref(), k);
            self.blocks.push(ir::BlockDecl {
                name,
                binding: binding.map(|x| x + k),
                size: types::round_up(size, 16),
                members: reflected.clone(),
            });
        }
        match &b.instance {
            Some((inst, _)) => {
                let (ty, root) = match &dims {
                    Some(d) => (
                        block_array_type(Type::Struct(def), d),
                        Root::BlockArray { first, row_major },
                    ),
                    None => (
                        Type::Struct(def),
                        Root::Block {
                            block: first,
                            row_major,
                        },
                    ),
                };
                let sym = VarSym {
                    ty,
                    root,
                    base: 0,
                    writable: false,
                    konst: None,
                };
                self.declare(inst, b.span, Sym::Var(Rc::new(sym)))
            }
            None => {
                for ((n, t), off) in def.members.iter().zip(offs) {
                    let sym = VarSym {
                        ty: t.clone(),
                        root: Root::Block {
                            block: first,
                            row_major,
                        },
                        base: off,
                        writable: false,
                        konst: None,
                    };
                    self.declare(n, b.span, Sym::Var(Rc::new(sym)))?;
                }
                Ok(())
            }
        }
    }

    // ---- built-in variables (GLSL 4.60 §7.1) ----

    pub(super) fn builtin_var(&mut self, name: &str) -> Option<Sym> {
        if let Some(c) = self.builtin_const(name) {
            let vars: Vec<Var> = c.vals.iter().map(|s| self.konst(*s)).collect();
            let sym = Sym::Var(Rc::new(VarSym {
                ty: c.ty.clone(),
                root: Root::Vars(vars.into()),
                base: 0,
                writable: false,
                konst: Some(c),
            }));
            self.scopes[0].insert(name.to_string(), sym.clone());
            return Some(sym);
        }
        if let Some(sym) = self.depth_range_builtin(name) {
            return Some(sym);
        }
        if self.stage == Stage::Compute {
            return self.compute_builtin_var(name);
        }
        if let Some(sym) = self.tess_builtin_var(name) {
            return Some(sym);
        }
        if let Some(sym) = self.geometry_builtin_var(name) {
            return Some(sym);
        }
        // A geometry or tessellation evaluation shader writes the vertex outputs (GLSL
        // 1.50 §7.1, GLSL 4.00 §7.1).
        let vertex = self.stage == Stage::Vertex
            || (matches!(self.stage, Stage::Geometry | Stage::TessEval)
                && matches!(name, "gl_Position" | "gl_PointSize" | "gl_ClipDistance"));
        let f4 = Type::vector(BaseType::Float, 4);
        let (ty, root_vars, writable): (Type, Vec<Var>, bool) = match (name, vertex) {
            ("gl_Position", true) | ("gl_PointSize", true) => {
                let (ty, b) = if name == "gl_Position" {
                    (f4, BuiltinOutput::Position)
                } else {
                    (Type::FLOAT, BuiltinOutput::PointSize)
                };
                let vars = self.new_vars_for(&ty);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: ty.basic()?,
                        array_len: None,
                        location: None,
                        slot: 0,
                        words: ty.words(),
                        interpolation: Interpolation::Smooth,
                        builtin: Some(b),
                    },
                    vars: vars.clone().into(),
                });
                (ty, vars, true)
            }
            // gl_InstanceIDARB is GL_ARB_draw_instanced's name for gl_InstanceID (GLSL 1.40
            // made it core), which piglit's GLSL 1.30 tests use.
            ("gl_VertexID", true) | ("gl_InstanceID", true) | ("gl_InstanceIDARB", true) => {
                let b = if name == "gl_VertexID" {
                    Builtin::VertexId
                } else {
                    Builtin::InstanceId
                };
                let v = self.new_var(ScalarKind::I32);
                self.prologue.push(Stmt::Assign {
                    dst: v,
                    op: Op::Builtin(b),
                });
                (Type::INT, vec![v], false)
            }
            ("gl_FragCoord", false) => {
                let mut vars = Vec::new();
                for b in [
                    Builtin::FragCoordX,
                    Builtin::FragCoordY,
                    Builtin::FragCoordZ,
                    Builtin::FragCoordW,
                ] {
                    let v = self.new_var(ScalarKind::F32);
                    self.prologue.push(Stmt::Assign {
                        dst: v,
                        op: Op::Builtin(b),
                    });
                    vars.push(v);
                }
                (f4, vars, false)
            }
            ("gl_PointCoord", false) => {
                // A noperspective vec2 input the rasterizer fills (`link::POINT_COORD_SLOT`).
                let vars = self.new_vars_for(&Type::vector(BaseType::Float, 2));
                let slot = self.read_input_words(&vars);
                self.inputs.push(InterfaceVar {
                    name: name.to_string(),
                    ty: vt(BaseType::Float, 2, 1),
                    array_len: None,
                    location: None,
                    slot,
                    words: 2,
                    interpolation: Interpolation::NoPerspective,
                    builtin: Some(BuiltinOutput::PointCoord),
                });
                (Type::vector(BaseType::Float, 2), vars, false)
            }
            ("gl_FrontFacing", false) => {
                let v = self.new_var(ScalarKind::Bool);
                self.prologue.push(Stmt::Assign {
                    dst: v,
                    op: Op::Builtin(Builtin::FrontFacing),
                });
                (Type::BOOL, vec![v], false)
            }
            ("gl_FragDepth", false) => {
                let v = self.new_var(ScalarKind::F32);
                // Starts at the fragment's depth, as a shader that writes it on some paths
                // only expects (GLSL 4.60 §7.1.2).
                let z = self.new_var(ScalarKind::F32);
                self.prologue.push(Stmt::Assign {
                    dst: z,
                    op: Op::Builtin(Builtin::FragCoordZ),
                });
                self.prologue.push(Stmt::Assign {
                    dst: v,
                    op: Op::Copy(z),
                });
                self.writes_depth = true;
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Float, 1, 1),
                        array_len: None,
                        location: None,
                        slot: 0,
                        words: 1,
                        interpolation: Interpolation::Smooth,
                        builtin: Some(BuiltinOutput::FragDepth),
                    },
                    vars: vec![v].into(),
                });
                (Type::FLOAT, vec![v], true)
            }
            ("gl_FragColor", false) if self.deprecated_builtins_allowed() => {
                let vars = self.new_vars_for(&f4);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Float, 4, 1),
                        array_len: None,
                        location: Some(0),
                        slot: 0,
                        words: 4,
                        interpolation: Interpolation::Smooth,
                        builtin: None,
                    },
                    vars: vars.clone().into(),
                });
                (f4, vars, true)
            }
            // gl_ClipDistance[i] (GLSL 1.30+ vertex output, GL 4.5 core §13.5): distance to
            // user clip plane i, sized by a redeclaration or gl_MaxClipDistances.
            // gl_CullDistance[i] (GLSL 4.50, GL_ARB_cull_distance): a primitive whose
            // vertices all have a negative distance i is discarded (`raster::clip`).
            // In a fragment shader both arrays are inputs, interpolated from the vertex
            // shader's values.
            ("gl_ClipDistance", _) | ("gl_CullDistance", _)
                if self.version >= 130
                    && (name == "gl_ClipDistance" || self.version >= 450 || self.cull_distance) =>
            {
                let cull = name == "gl_CullDistance";
                let Some(n) = self.distance_len(cull) else {
                    self.error(
                        Span::default(),
                        format!(
                            "`{name}' has no room left: gl_ClipDistance and gl_CullDistance \
                             share gl_MaxCombinedClipAndCullDistances (8)"
                        ),
                    );
                    return None;
                };
                let builtin = if cull {
                    BuiltinOutput::CullDistance
                } else {
                    BuiltinOutput::ClipDistance
                };
                let ty = Type::Array(Box::new(Type::FLOAT), n);
                let vars = self.new_vars_for(&ty);
                let var = InterfaceVar {
                    name: name.to_string(),
                    ty: vt(BaseType::Float, 1, 1),
                    array_len: Some(n),
                    location: None,
                    slot: 0,
                    words: n,
                    interpolation: Interpolation::Smooth,
                    builtin: Some(builtin),
                };
                if vertex {
                    self.outputs.push(PendingOutput {
                        var,
                        vars: vars.clone().into(),
                    });
                    (ty, vars, true)
                } else {
                    let slot = self.read_input_words(&vars);
                    self.inputs.push(InterfaceVar { slot, ..var });
                    (ty, vars, false)
                }
            }
            // gl_FragData[n] writes colour output n (GLSL 1.10–4.10, compatibility).
            ("gl_FragData", false) if self.deprecated_builtins_allowed() => {
                const MAX_DRAW_BUFFERS: u32 = 8;
                let ty = Type::Array(Box::new(f4), MAX_DRAW_BUFFERS);
                let vars = self.new_vars_for(&ty);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Float, 4, 1),
                        array_len: Some(MAX_DRAW_BUFFERS),
                        location: Some(0),
                        slot: 0,
                        words: 4 * MAX_DRAW_BUFFERS,
                        interpolation: Interpolation::Smooth,
                        builtin: None,
                    },
                    vars: vars.clone().into(),
                });
                (ty, vars, true)
            }
            _ => return None,
        };
        let sym = Sym::Var(Rc::new(VarSym {
            ty,
            root: Root::Vars(root_vars.into()),
            base: 0,
            writable,
            konst: None,
        }));
        self.scopes[0].insert(name.to_string(), sym.clone());
        Some(sym)
    }
}

/// One leaf of a struct-typed input or output: (name, type, first word, location).
type StructLeaf = (String, Type, u32, Option<u32>);

/// (name, type, array length, word offset) of one reflected uniform.
type UniformLeaf = (String, ValueType, Option<u32>, u32);

/// Leaves of a default-block uniform as GL reflection names them.
fn uniform_leaves(name: &str, ty: &Type, offset: u32, out: &mut Vec<UniformLeaf>) {
    match ty {
        Type::Basic(v) => out.push((name.to_string(), *v, None, offset)),
        Type::Array(e, n) => match &**e {
            Type::Basic(v) => out.push((format!("{name}[0]"), *v, Some(*n), offset)),
            inner => {
                let w = inner.words();
                for k in 0..*n {
                    uniform_leaves(&format!("{name}[{k}]"), inner, offset + k * w, out);
                }
            }
        },
        Type::Struct(s) => {
            let mut off = offset;
            for (m, t) in &s.members {
                uniform_leaves(&format!("{name}.{m}"), t, off, out);
                off += t.words();
            }
        }
        Type::Void => {}
    }
}

/// Leaves of a block member with their offsets in `layout` (GL reflection: an array of
/// basic types is one leaf `a[0]`; a runtime-sized array of structs lists element 0).
/// The struct `ty` is, or is an array of; `None` for other types.
fn struct_leaf_type(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Struct(_) => Some(ty),
        Type::Array(e, _) => struct_leaf_type(e),
        _ => None,
    }
}

/// The leaves of an interface variable of struct type: (name, basic type or array of
/// one, first word), in word order (`Type::word_kinds`).
fn struct_leaves(name: &str, ty: &Type, at: u32, out: &mut Vec<(String, Type, u32)>) {
    match ty {
        Type::Struct(s) => {
            let mut at = at;
            for (m, t) in &s.members {
                struct_leaves(&format!("{name}.{m}"), t, at, out);
                at += t.words();
            }
        }
        Type::Array(e, n) if struct_leaf_type(e).is_some() => {
            for k in 0..*n {
                struct_leaves(&format!("{name}[{k}]"), e, at + k * e.words(), out);
            }
        }
        t => out.push((name.to_string(), t.clone(), at)),
    }
}

pub(super) fn block_leaves(
    name: &str,
    ty: &Type,
    offset: u32,
    layout: types::BlockLayout,
    out: &mut Vec<ir::BlockMember>,
) {
    let row_major = layout.row_major;
    let mstride = |v: &ValueType| {
        if v.cols > 1 {
            layout.matrix_stride(v)
        } else {
            0
        }
    };
    match ty {
        Type::Basic(v) => out.push(ir::BlockMember {
            name: name.to_string(),
            ty: *v,
            array_len: None,
            offset,
            array_stride: 0,
            matrix_stride: mstride(v),
            row_major: row_major && v.cols > 1,
        }),
        Type::Array(e, n) => {
            let stride = types::block_array_stride(e, layout);
            match &**e {
                Type::Basic(v) => out.push(ir::BlockMember {
                    name: format!("{name}[0]"),
                    ty: *v,
                    array_len: Some(*n),
                    offset,
                    array_stride: stride,
                    matrix_stride: mstride(v),
                    row_major: row_major && v.cols > 1,
                }),
                inner => {
                    for k in 0..(*n).max(1) {
                        block_leaves(
                            &format!("{name}[{k}]"),
                            inner,
                            offset + k * stride,
                            layout,
                            out,
                        );
                    }
                }
            }
        }
        Type::Struct(s) => {
            let offs = types::block_member_offsets(s, layout);
            for ((m, t), o) in s.members.iter().zip(offs) {
                block_leaves(&format!("{name}.{m}"), t, offset + o, layout, out);
            }
        }
        Type::Void => {}
    }
}

/// A struct leaf's interface type and array length: an array leaf is its element type
/// with a length, any other leaf itself.
fn leaf_shape(leaf: &Type) -> (ValueType, Option<u32>) {
    let (elem, len) = match leaf {
        Type::Array(e, n) => (&**e, Some(*n)),
        t => (t, None),
    };
    (elem.basic().unwrap_or(vt(BaseType::Float, 1, 1)), len)
}

/// The name of element `k` (row-major) of a block declared with the array dimensions
/// `dims` (GL 4.5 core §7.3.1.1: `B`, `B[2]`, `B[1][0]` for an array of arrays).
pub(super) fn block_element_name(name: &str, dims: Option<&[u32]>, k: u32) -> String {
    let Some(dims) = dims else {
        return name.to_string();
    };
    let mut index = vec![0; dims.len()];
    let mut rest = k;
    for (i, &d) in dims.iter().enumerate().rev() {
        index[i] = rest % d.max(1);
        rest /= d.max(1);
    }
    let mut out = name.to_string();
    for i in index {
        out.push_str(&format!("[{i}]"));
    }
    out
}

/// The type of a block instance array of dimensions `dims` (outermost first).
pub(super) fn block_array_type(elem: Type, dims: &[u32]) -> Type {
    dims.iter()
        .rev()
        .fold(elem, |t, &n| Type::Array(Box::new(t), n))
}

impl Lowerer {
    /// The array dimensions of a block's instance (`B { ... } b[2][3];`: [2, 3]; GL_ARB_
    /// arrays_of_arrays / GLSL 4.30 for more than one), `None` when it is not an array. Every
    /// dimension must be sized.
    pub(super) fn block_array_dims(&mut self, b: &ast::BlockDecl) -> R<Option<Vec<u32>>> {
        let Some((_, dims)) = &b.instance else {
            return Ok(None);
        };
        if dims.is_empty() {
            return Ok(None);
        }
        if dims.len() > 1 && self.version < 430 && !self.arrays_of_arrays {
            bail!(
                self,
                b.span,
                "arrays of arrays require GLSL 4.30 or GL_ARB_arrays_of_arrays"
            );
        }
        let mut out = Vec::with_capacity(dims.len());
        for d in dims {
            match d {
                Some(e) => out.push(self.array_size(e)?),
                None => bail!(self, b.span, "block array must be sized"),
            }
        }
        if out.iter().map(|&n| n as u64).product::<u64>() > 1 << 16 {
            bail!(self, b.span, "block array has too many elements");
        }
        Ok(Some(out))
    }
}
