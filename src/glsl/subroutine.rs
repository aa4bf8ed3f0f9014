//! Subroutines in the front end (GLSL 4.60 §6.1.2, ARB_shader_subroutine): subroutine type
//! declarations (`subroutine vec4 T(vec4);`), functions associated with them
//! (`subroutine(T, U) vec4 f(vec4 x) {…}`, `layout(index = N)`), subroutine uniforms
//! (`subroutine uniform T u;`, arrays, `layout(location = N)`), their compile errors, and
//! calls through a subroutine uniform. What the module records and how the selection reaches
//! generated code is `ir::subroutine`'s.
//!
//! A call `u(args)` (or `u[i](args)`) evaluates its arguments once, reads the uniform's word
//! of the stage's hidden selection uniform, and runs `if (word == index) { f(args) }` for
//! each function `f` of the uniform's type, each inlined like any call (so recursion through
//! subroutine uniforms is the ordinary recursive-call error, GLSL 4.60 §6.1.2). The
//! conditions are uniform, so generated code takes one branch per quad.

use std::rc::Rc;

use crate::ir::subroutine::{
    hidden_uniform_name, SubroutineFunction, SubroutineInfo, SubroutineUniform, MAX_SUBROUTINES,
    MAX_SUBROUTINE_UNIFORM_LOCATIONS,
};
use crate::ir::{BaseType, BinaryOp, Op, Scalar, ScalarKind, Stmt, UniformDecl, Var};

use super::ast::{self, Expr, SubroutineQual, VarDecl};
use super::diag::Span;
use super::lower::*;
use super::types::{builtin_type, vt, Type};

/// A subroutine type: the signature its functions must have.
#[derive(Clone, Debug)]
struct SubType {
    name: String,
    ret: Type,
    params: Vec<(Type, ParamDir)>,
    /// The compilation unit that declared it.
    unit: usize,
}

/// A function associated with subroutine types.
#[derive(Clone)]
struct SubFn {
    def: Rc<FnDef>,
    types: Vec<String>,
    /// `layout(index = N)`.
    index: Option<u32>,
}

/// A subroutine uniform as declared.
#[derive(Clone, Debug)]
struct SubUniform {
    name: String,
    ty: String,
    array_len: Option<u32>,
    /// `layout(location = N)`.
    location: Option<u32>,
}

/// What the unit(s) of a stage declare about subroutines, and where the hidden selection
/// uniform is once `main` is about to be lowered.
#[derive(Default)]
pub struct Subroutines {
    types: Vec<SubType>,
    functions: Vec<SubFn>,
    uniforms: Vec<SubUniform>,
    /// First word of the hidden selection uniform (`place_subroutine_uniforms`).
    base: Option<u32>,
}

impl Subroutines {
    /// Each function's subroutine index: `layout(index)` first, then the lowest free one
    /// in declaration order.
    fn indices(&self) -> Vec<u32> {
        let mut used: Vec<u32> = self.functions.iter().filter_map(|f| f.index).collect();
        let mut next = 0;
        self.functions
            .iter()
            .map(|f| {
                f.index.unwrap_or_else(|| {
                    while used.contains(&next) {
                        next += 1;
                    }
                    used.push(next);
                    next
                })
            })
            .collect()
    }

    /// Each uniform's first location: `layout(location)` first, then the lowest free run
    /// of its elements in declaration order; and the number of locations (one past the
    /// highest).
    fn locations(&self) -> (Vec<u32>, u32) {
        let mut used: Vec<(u32, u32)> = self
            .uniforms
            .iter()
            .filter_map(|u| u.location.map(|l| (l, l + u.array_len.unwrap_or(1))))
            .collect();
        let free = |used: &[(u32, u32)], at: u32, n: u32| {
            used.iter().all(|&(a, b)| at + n <= a || at >= b)
        };
        let locs: Vec<u32> = self
            .uniforms
            .iter()
            .map(|u| {
                u.location.unwrap_or_else(|| {
                    let n = u.array_len.unwrap_or(1);
                    let mut at = 0;
                    while !free(&used, at, n) {
                        at += 1;
                    }
                    used.push((at, at + n));
                    at
                })
            })
            .collect();
        let count = used.iter().map(|u| u.1).max().unwrap_or(0);
        (locs, count)
    }

    /// The indices of the functions of subroutine type `ty`, with their definitions, in
    /// index order.
    fn compatible(&self, ty: &str) -> Vec<(u32, Rc<FnDef>)> {
        let mut v: Vec<(u32, Rc<FnDef>)> = self
            .functions
            .iter()
            .zip(self.indices())
            .filter(|(f, _)| f.types.iter().any(|t| t == ty))
            .map(|(f, i)| (i, f.def.clone()))
            .collect();
        v.sort_by_key(|(i, _)| *i);
        v
    }

    fn is_type(&self, name: &str) -> bool {
        self.types.iter().any(|t| t.name == name)
    }

    fn is_function(&self, name: &str) -> bool {
        self.functions.iter().any(|f| f.def.decl.name == name)
    }

    /// What the module records (`ir::Module::subroutines`).
    pub fn into_info(self) -> SubroutineInfo {
        let indices = self.indices();
        let (locs, locations) = self.locations();
        let mut functions: Vec<SubroutineFunction> = self
            .functions
            .iter()
            .zip(&indices)
            .map(|(f, &index)| SubroutineFunction {
                name: f.def.decl.name.clone(),
                index,
                types: f.types.clone(),
            })
            .collect();
        functions.sort_by_key(|f| f.index);
        let uniforms = self
            .uniforms
            .iter()
            .zip(locs)
            .map(|(u, location)| SubroutineUniform {
                name: match u.array_len {
                    Some(_) => format!("{}[0]", u.name),
                    None => u.name.clone(),
                },
                ty: u.ty.clone(),
                array_len: u.array_len,
                location,
                compatible: self.compatible(&u.ty).iter().map(|c| c.0).collect(),
            })
            .collect();
        SubroutineInfo {
            functions,
            uniforms,
            locations,
        }
    }
}

impl Lowerer {
    /// Explicit locations and indices: GLSL 4.30 or GL_ARB_explicit_uniform_location.
    fn explicit_uniform_locations(&self) -> bool {
        self.version >= 430 || self.explicit_uniform_location
    }

    /// `subroutine vec4 T(vec4 x);`: declares subroutine type `T` (GLSL 4.60 §6.1.2).
    /// Subroutine types share the namespace of functions.
    pub(super) fn subroutine_type_decl(
        &mut self,
        f: &ast::FunctionDecl,
        ret: Type,
        params: Vec<(Type, ParamDir)>,
    ) -> R<()> {
        if f.body.is_some() {
            bail!(
                self,
                f.span,
                "a subroutine type declaration `{}' cannot have a body (did you mean `subroutine({}) ...'?)",
                f.name,
                f.name
            );
        }
        if !f.quals.layout.is_empty() {
            bail!(
                self,
                f.span,
                "layout qualifiers are not allowed on a subroutine type"
            );
        }
        // Each unit of a stage that uses the type declares it (GLSL 4.60 §2.1): the same
        // declaration in another unit is the same type.
        let same =
            self.subroutines.types.iter().any(|t| {
                t.name == f.name && t.unit != self.unit && t.ret == ret && t.params == params
            });
        if same {
            return Ok(());
        }
        if self.funcs.contains_key(&f.name) || self.subroutines.is_type(&f.name) {
            bail!(
                self,
                f.span,
                "subroutine type `{}' redeclares a function or subroutine type",
                f.name
            );
        }
        if self.scopes[0].contains_key(&f.name) || builtin_type(&f.name).is_some() {
            bail!(self, f.span, "`{}' redeclared as a subroutine type", f.name);
        }
        self.subroutines.types.push(SubType {
            name: f.name.clone(),
            ret,
            params,
            unit: self.unit,
        });
        Ok(())
    }

    /// The subroutine rules of a function declaration before it is registered: a function
    /// may not be named after a subroutine type, and a function associated with subroutine
    /// types may not be overloaded (GLSL 4.60 §6.1.2) or only prototyped.
    pub(super) fn check_function_against_subroutines(
        &mut self,
        f: &ast::FunctionDecl,
        params: &[(Type, ParamDir)],
    ) -> R<()> {
        if self.subroutines.is_type(&f.name) {
            bail!(
                self,
                f.span,
                "function `{}' has the name of a subroutine type",
                f.name
            );
        }
        let is_sub = matches!(f.quals.subroutine, Some((SubroutineQual::Types(_), _)));
        if is_sub && f.body.is_none() {
            bail!(
                self,
                f.span,
                "a function associated with subroutine types cannot be a prototype"
            );
        }
        if is_sub || self.subroutines.is_function(&f.name) {
            let other = self.funcs.get(&f.name).is_some_and(|l| {
                l.iter().any(|d| {
                    d.params
                        .iter()
                        .map(|p| &p.0)
                        .ne(params.iter().map(|p| &p.0))
                })
            });
            if other {
                bail!(
                    self,
                    f.span,
                    "function `{}' is overloaded and associated with a subroutine type",
                    f.name
                );
            }
        }
        if !is_sub {
            if let Some(l) = f.quals.layout.first() {
                bail!(
                    self,
                    l.span,
                    "layout qualifier `{}' is not allowed on a function",
                    l.name
                );
            }
        }
        Ok(())
    }

    /// `subroutine(T, U) ... f(...) {…}` once `def` is registered: each type exists and has
    /// `f`'s signature (GLSL 4.60 §6.1.2: "It is a compile-time error if arguments and
    /// return type don't match"), `layout(index = N)` is valid, and `f` joins the
    /// subroutines before its body is checked (so recursion through a subroutine uniform
    /// is found there).
    pub(super) fn subroutine_function(&mut self, def: &Rc<FnDef>) -> R<()> {
        let Some((SubroutineQual::Types(types), qspan)) = def.decl.quals.subroutine.clone() else {
            return Ok(());
        };
        if self.subroutines.is_function(&def.decl.name) {
            // A second definition was refused already ("redefined").
            return Ok(());
        }
        let mut names = Vec::new();
        for (t, sp) in &types {
            let Some(st) = self
                .subroutines
                .types
                .iter()
                .find(|s| &s.name == t)
                .cloned()
            else {
                bail!(self, *sp, "`{t}' is not a subroutine type");
            };
            let same = st.ret == def.ret
                && st.params.len() == def.params.len()
                && st.params.iter().zip(&def.params).all(|(a, b)| a == b);
            if !same {
                bail!(
                    self,
                    qspan,
                    "function `{}' does not match the return type and parameters of subroutine type `{t}'",
                    def.decl.name
                );
            }
            if !names.contains(t) {
                names.push(t.clone());
            }
        }
        let mut index = None;
        for l in &def.decl.quals.layout {
            if l.name != "index" {
                bail!(
                    self,
                    l.span,
                    "layout qualifier `{}' is not allowed on a subroutine function",
                    l.name
                );
            }
            if !self.explicit_uniform_locations() {
                bail!(
                    self,
                    l.span,
                    "layout(index) on a subroutine function requires GLSL 4.30 or GL_ARB_explicit_uniform_location"
                );
            }
            let v = self.layout_int(l)?;
            if v >= MAX_SUBROUTINES as i64 {
                bail!(
                    self,
                    l.span,
                    "subroutine index {v} is not below GL_MAX_SUBROUTINES ({MAX_SUBROUTINES})"
                );
            }
            if self
                .subroutines
                .functions
                .iter()
                .any(|f| f.index == Some(v as u32))
            {
                bail!(self, l.span, "subroutine index {v} is used twice");
            }
            index = Some(v as u32);
        }
        self.subroutines.functions.push(SubFn {
            def: def.clone(),
            types: names,
            index,
        });
        Ok(())
    }

    /// `subroutine uniform T u;`, `u[N]`, with `layout(location = N)` (GLSL 4.60 §6.1.2,
    /// §4.4.3). `subroutine` on anything but a uniform is an error.
    pub(super) fn subroutine_uniform_decl(&mut self, vd: &VarDecl) -> R<()> {
        let Some((q, qspan)) = &vd.quals.subroutine else {
            return Ok(());
        };
        if matches!(q, SubroutineQual::Types(_)) {
            bail!(
                self,
                *qspan,
                "`subroutine(...)' qualifies function definitions only"
            );
        }
        if vd.quals.storage != Some(ast::Storage::Uniform) {
            bail!(
                self,
                *qspan,
                "`subroutine' declares a subroutine type, a subroutine function or a subroutine uniform only"
            );
        }
        if !self.subroutines.is_type(&vd.ty.name) {
            bail!(
                self,
                vd.ty.span,
                "`{}' is not a subroutine type",
                vd.ty.name
            );
        }
        let mut location = None;
        for l in &vd.quals.layout {
            if l.name != "location" {
                bail!(
                    self,
                    l.span,
                    "layout qualifier `{}' is not allowed on a subroutine uniform",
                    l.name
                );
            }
            if !self.explicit_uniform_locations() {
                bail!(
                    self,
                    l.span,
                    "layout(location) on a subroutine uniform requires GLSL 4.30 or GL_ARB_explicit_uniform_location"
                );
            }
            location = Some(self.layout_int(l)?);
        }
        if vd.decls.is_empty() {
            bail!(self, vd.span, "a subroutine uniform needs a name");
        }
        for d in &vd.decls {
            if d.init.is_some() {
                bail!(self, d.span, "a subroutine uniform cannot be initialized");
            }
            let dims: Vec<&Option<Expr>> = vd.ty.dims.iter().chain(&d.dims).collect();
            let array_len = match dims.as_slice() {
                [] => None,
                [Some(e)] => Some(self.array_size(e)?),
                [None] => bail!(self, d.span, "an array of subroutine uniforms needs a size"),
                _ => bail!(
                    self,
                    d.span,
                    "arrays of arrays of subroutine uniforms are not allowed"
                ),
            };
            if d.name.starts_with("gl_") {
                bail!(
                    self,
                    d.span,
                    "identifier `{}' uses reserved `gl_' prefix",
                    d.name
                );
            }
            if self.subroutines.uniforms.iter().any(|u| u.name == d.name)
                || self.scopes[0].contains_key(&d.name)
                || self.funcs.contains_key(&d.name)
                || self.subroutines.is_type(&d.name)
            {
                bail!(self, d.span, "`{}' redeclared", d.name);
            }
            let n = array_len.unwrap_or(1) as i64;
            if let Some(loc) = location {
                if loc + n > MAX_SUBROUTINE_UNIFORM_LOCATIONS as i64 {
                    bail!(
                        self,
                        d.span,
                        "subroutine uniform `{}' at location {loc} passes GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS ({MAX_SUBROUTINE_UNIFORM_LOCATIONS})",
                        d.name
                    );
                }
                let taken = self.subroutines.uniforms.iter().any(|u| {
                    u.location.is_some_and(|o| {
                        let m = u.array_len.unwrap_or(1) as i64;
                        loc < o as i64 + m && (o as i64) < loc + n
                    })
                });
                if taken {
                    bail!(
                        self,
                        d.span,
                        "subroutine uniform `{}' uses a location another one uses",
                        d.name
                    );
                }
            }
            self.subroutines.uniforms.push(SubUniform {
                name: d.name.clone(),
                ty: vd.ty.name.clone(),
                array_len,
                location: location.map(|l| l as u32),
            });
            // One declaration's explicit location covers its first declarator only.
            location = None;
        }
        Ok(())
    }

    /// Before `main` is lowered (every subroutine uniform is declared then): reserves the
    /// stage's hidden selection uniform, one word per location (`ir::subroutine`).
    pub(super) fn place_subroutine_uniforms(&mut self) {
        let (_, count) = self.subroutines.locations();
        if count == 0 || self.subroutines.base.is_some() {
            return;
        }
        if count > MAX_SUBROUTINE_UNIFORM_LOCATIONS {
            self.error(
                Span {
                    source: 0,
                    line: 1,
                    column: 1,
                },
                format!(
                    "{count} subroutine uniform locations, more than GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS ({MAX_SUBROUTINE_UNIFORM_LOCATIONS})"
                ),
            );
            return;
        }
        let base = self.uniform_words;
        self.uniform_words = self.uniform_words.saturating_add(count);
        self.uniforms.push(UniformDecl {
            name: hidden_uniform_name(self.stage),
            ty: vt(BaseType::Uint, 1, 1),
            array_len: Some(count),
            offset: base,
            stride: 1,
            bindless: false,
            bound: false,
            binding: None,
            init: None,
            location: None,
        });
        self.subroutines.base = Some(base);
    }

    /// A call through subroutine uniform `name` (`index`: the element of an array), or the
    /// error of calling a subroutine type; `None` when `name` is neither.
    pub(super) fn subroutine_call(
        &mut self,
        name: &str,
        index: Option<&Expr>,
        args: &[Expr],
        span: Span,
    ) -> Option<R<Value>> {
        let k = self
            .subroutines
            .uniforms
            .iter()
            .position(|u| u.name == name);
        let Some(k) = k else {
            if self.subroutines.is_type(name) {
                self.error(
                    span,
                    format!("`{name}' is a subroutine type: call a subroutine uniform of it"),
                );
                return Some(Err(()));
            }
            if index.is_some() {
                self.error(
                    span,
                    format!("`{name}' is not an array of subroutine uniforms"),
                );
                return Some(Err(()));
            }
            return None;
        };
        Some(self.lower_subroutine_call(k, index, args, span))
    }

    fn lower_subroutine_call(
        &mut self,
        k: usize,
        index: Option<&Expr>,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        let u = self.subroutines.uniforms[k].clone();
        let Some(st) = self
            .subroutines
            .types
            .iter()
            .find(|t| t.name == u.ty)
            .cloned()
        else {
            bail!(self, span, "`{}' is not a subroutine type", u.ty);
        };
        // The element: a constant folds into the word; otherwise a dynamic index (GLSL 4.40
        // asks it to be dynamically uniform; any value works here, out of range reads 0).
        let (element, dynamic) = match (index, u.array_len) {
            (None, None) => (0, None),
            (None, Some(_)) => bail!(
                self,
                span,
                "`{}' is an array of subroutine uniforms: call one of its elements",
                u.name
            ),
            (Some(_), None) => bail!(self, span, "`{}' is not an array", u.name),
            (Some(e), Some(n)) => match self.const_eval(e).and_then(|c| c.as_index()) {
                Some(i) if (0..n as i64).contains(&i) => (i as u32, None),
                Some(i) => bail!(
                    self,
                    e.span,
                    "index {i} is out of bounds for `{}[{n}]'",
                    u.name
                ),
                None => {
                    let v = self.expr(e)?;
                    if v.ty != Type::scalar(BaseType::Int) && v.ty != Type::scalar(BaseType::Uint) {
                        bail!(self, e.span, "array index must be an integer scalar");
                    }
                    (0, Some((v.vars[0], 1, n)))
                }
            },
        };
        // Arguments, as a call of a function of the subroutine type's signature.
        let mut places = Vec::with_capacity(args.len());
        for a in args {
            places.push(self.place(a)?);
        }
        let fits = st.params.len() == places.len()
            && st.params.iter().zip(&places).all(|(p, a)| match p.1 {
                ParamDir::In => self.implicitly(&a.ty, &p.0),
                ParamDir::Out => self.implicitly(&p.0, &a.ty),
                ParamDir::InOut => self.implicitly(&a.ty, &p.0) && self.implicitly(&p.0, &a.ty),
            });
        if !fits {
            let sig: Vec<String> = places.iter().map(|p| p.ty.to_string()).collect();
            bail!(
                self,
                span,
                "no matching call to subroutine uniform `{}' of type `{}' with arguments ({})",
                u.name,
                u.ty,
                sig.join(", ")
            );
        }
        let mut vals = Vec::with_capacity(places.len());
        for ((p, (pt, dir)), a) in places.iter().zip(&st.params).zip(args) {
            if *dir != ParamDir::In && !p.writable {
                bail!(
                    self,
                    a.span,
                    "argument for an out or inout parameter of `{}' is not a writable l-value",
                    u.name
                );
            }
            if *dir == ParamDir::Out {
                let vars = self.new_vars_for(pt);
                vals.push(Value {
                    ty: pt.clone(),
                    vars,
                });
            } else {
                let v = self.read(p, a.span)?;
                vals.push(self.coerce(v, pt, a.span)?);
            }
        }
        let (locs, _) = self.subroutines.locations();
        // Before `main` (checking a function body alone) the hidden uniform has no place
        // yet; that code is thrown away.
        let base = self.subroutines.base.unwrap_or(0);
        let selected = self.assign(
            ScalarKind::U32,
            Op::Uniform {
                offset: base + locs[k] + element,
                index: dynamic,
            },
        );
        let ret: Option<Vec<Var>> = match &st.ret {
            Type::Void => None,
            t => Some(self.new_vars_for(t)),
        };
        // What out and inout parameters copy back: an inout one starts as its argument, so
        // a selection that runs no function leaves it as it was.
        let mut outs: Vec<Option<Vec<Var>>> = Vec::with_capacity(st.params.len());
        for ((t, d), v) in st.params.iter().zip(&vals) {
            outs.push(match d {
                ParamDir::In => None,
                ParamDir::Out => Some(self.new_vars_for(t)),
                ParamDir::InOut => Some(
                    v.vars
                        .iter()
                        .map(|w| {
                            let k = self.kind_of(*w);
                            self.assign(k, Op::Copy(*w))
                        })
                        .collect(),
                ),
            });
        }
        for (index, def) in self.subroutines.compatible(&u.ty) {
            let want = self.konst(Scalar::U32(index));
            let cond = self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::IEq, selected, want));
            let (then_body, r) = self.collect(|s| {
                let (pvars, value) = s.inline_body(&def, vals.clone(), span)?;
                if let (Some(dst), Some(v)) = (&ret, value) {
                    for (d, w) in dst.iter().zip(&v.vars) {
                        s.emit(Stmt::Assign {
                            dst: *d,
                            op: Op::Copy(*w),
                        });
                    }
                }
                for (out, p) in outs.iter().zip(pvars) {
                    for (d, w) in out.iter().flatten().zip(p.iter()) {
                        s.emit(Stmt::Assign {
                            dst: *d,
                            op: Op::Copy(*w),
                        });
                    }
                }
                Ok(())
            });
            r?;
            self.emit(Stmt::If {
                cond,
                then_body,
                else_body: Vec::new(),
            });
        }
        for ((p, (pt, _)), out) in places.iter().zip(&st.params).zip(outs) {
            if let Some(vars) = out {
                let v = Value {
                    ty: pt.clone(),
                    vars,
                };
                let v = self.coerce(v, &p.ty, span)?;
                self.write(p, &v, span)?;
            }
        }
        Ok(ret.map_or(
            Value {
                ty: Type::Void,
                vars: Vec::new(),
            },
            |vars| Value { ty: st.ret, vars },
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::glsl::compile;
    use crate::ir::subroutine::hidden_uniform_name;
    use crate::ir::{Module, Stage};

    const HEAD: &str = "#version 150\n#extension GL_ARB_shader_subroutine : require\n";

    fn ok(src: &str) -> Module {
        let src = format!("{HEAD}{src}");
        let out = compile(Stage::Fragment, &src);
        let m = out
            .module
            .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
        crate::glsl::verify::verify_module(&m).unwrap_or_else(|e| panic!("{e}\n{src}"));
        m
    }

    fn fails(src: &str, want: &str) {
        let src = format!("{HEAD}{src}");
        let out = compile(Stage::Fragment, &src);
        assert!(!out.compiled, "expected an error:\n{src}");
        assert!(
            out.info_log.contains(want),
            "expected `{want}' in:\n{}\n{src}",
            out.info_log
        );
    }

    /// Runs a fragment shader through the interpreter with `uniforms` as its default
    /// block; returns output `o`'s four floats.
    fn run(m: &Module, uniforms: &[u32]) -> [f32; 4] {
        let env = crate::ir::interp::InterpEnv {
            uniforms,
            blocks: &[],
            storage: &[],
            texture: &|_| [[0; 4]; 4],
            quad: true,
        };
        let builtins = [0u32; crate::ir::Builtin::COUNT * 4];
        let mut out = vec![0u32; m.func.outputs.len() * 4];
        crate::ir::interp::run(m, &env, &[], &builtins, &mut out, 0xF);
        [0, 1, 2, 3].map(|k| f32::from_bits(out[k * 4]))
    }

    /// The word of the hidden selection uniform for location 0.
    fn selection_base(m: &Module) -> u32 {
        let name = hidden_uniform_name(m.stage);
        m.uniforms
            .iter()
            .find(|u| u.name == name)
            .expect("hidden")
            .offset
    }

    const TWO: &str = "out vec4 o;
uniform float k;
subroutine vec4 Paint(float x);
subroutine uniform Paint paint;
subroutine(Paint) vec4 red(float x) { return vec4(x, 0.0, 0.0, 1.0); }
subroutine(Paint) vec4 green(float x) { return vec4(0.0, x, 0.0, 1.0); }
void main() { o = paint(k); }";

    #[test]
    fn a_call_runs_the_selected_function() {
        let m = ok(TWO);
        let i = &m.subroutines;
        assert_eq!(
            i.functions
                .iter()
                .map(|f| (f.name.as_str(), f.index))
                .collect::<Vec<_>>(),
            [("red", 0), ("green", 1)]
        );
        assert_eq!(i.uniforms.len(), 1);
        assert_eq!(i.uniforms[0].compatible, [0, 1]);
        assert_eq!(i.locations, 1);
        let base = selection_base(&m) as usize;
        let mut words = vec![0u32; m.uniform_words as usize];
        words[0] = 0.5f32.to_bits();
        assert_eq!(run(&m, &words), [0.5, 0.0, 0.0, 1.0]);
        words[base] = 1;
        assert_eq!(run(&m, &words), [0.0, 0.5, 0.0, 1.0]);
        // The hidden uniform is the only addition to the interface.
        assert_eq!(m.uniforms.len(), 2);
    }

    #[test]
    fn arrays_explicit_indices_locations_and_out_parameters() {
        let src = "#extension GL_ARB_explicit_uniform_location : require
out vec4 o;
uniform int pick;
subroutine void Get(out float v, inout float acc);
layout(location = 3) subroutine uniform Get get[2];
subroutine uniform Get single;
layout(index = 4) subroutine(Get) void one(out float v, inout float acc) { v = 1.0; acc += 1.0; }
layout(index = 1) subroutine(Get) void quarter(out float v, inout float acc) { v = 0.25; acc += 2.0; }
void main() {
    float a; float b; float acc = 0.0;
    get[pick](a, acc);
    get[1 - pick](b, acc);
    single(o.z, acc);
    o.x = a; o.y = b; o.w = acc;
}";
        let m = ok(src);
        let i = &m.subroutines;
        // Both keep their explicit indices (no function has index 0, so a read of the
        // wrong word selects nothing and leaves zeros).
        assert_eq!(
            i.functions
                .iter()
                .map(|f| (f.name.as_str(), f.index))
                .collect::<Vec<_>>(),
            [("quarter", 1), ("one", 4)]
        );
        assert_eq!(i.uniforms[0].name, "get[0]");
        assert_eq!((i.uniforms[0].location, i.uniforms[1].location), (3, 0));
        assert_eq!(i.locations, 5);
        assert_eq!(i.uniforms[0].compatible, [1, 4]);
        let base = selection_base(&m) as usize;
        let mut words = vec![0u32; m.uniform_words as usize];
        // get[0] = one, get[1] = quarter, single = one; pick = 0.
        words[base + 3] = 4;
        words[base + 4] = 1;
        words[base] = 4;
        assert_eq!(run(&m, &words), [1.0, 0.25, 1.0, 4.0]);
        // pick = 1 swaps which element each call reads.
        words[0] = 1;
        assert_eq!(run(&m, &words), [0.25, 1.0, 1.0, 4.0]);
        // An index out of range reads 0, which selects no function: `out` values stay
        // 0 and `inout` ones keep what they had.
        words[0] = 5;
        assert_eq!(run(&m, &words), [0.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn subroutine_functions_call_other_subroutine_uniforms_and_stay_callable() {
        // `outer` calls `inner_u`, whose functions come after it.
        let src = "out vec4 o;
subroutine float Inner();
subroutine float Outer();
subroutine uniform Inner inner_u;
subroutine uniform Outer outer_u;
subroutine(Outer) float outer() { return inner_u() + 1.0; }
subroutine(Inner) float two() { return 2.0; }
subroutine(Inner) float three() { return 3.0; }
void main() { o = vec4(outer_u(), two(), 0.0, 1.0); }";
        let m = ok(src);
        let base = selection_base(&m) as usize;
        let mut words = vec![0u32; m.uniform_words as usize];
        // inner_u (location 0) = three (index 2), outer_u = outer (0).
        words[base] = 2;
        assert_eq!(run(&m, &words), [4.0, 2.0, 0.0, 1.0]);
    }

    #[test]
    fn declarations_and_uses_of_the_wrong_kind_are_errors() {
        let sig = "subroutine float T(float x);\n";
        for (src, want) in [
            ("float subroutine;\nvoid main() {}", "syntax error"),
            ("subroutine(Nope) float f(float x) { return x; }\nvoid main() {}", "`Nope' is not a subroutine type"),
            ("subroutine(T) float f(float x);\nvoid main() {}", "cannot be a prototype"),
            ("subroutine() float f(float x) { return x; }\nvoid main() {}", "subroutine type name"),
            ("subroutine(1) float f(float x) { return x; }\nvoid main() {}", "subroutine type name"),
            ("subroutine(T) float f(int x) { return 1.0; }\nvoid main() {}", "does not match"),
            ("subroutine(T) int f(float x) { return 1; }\nvoid main() {}", "does not match"),
            ("subroutine(T) float f() { return 1.0; }\nvoid main() {}", "does not match"),
            ("subroutine(T) float f(out float x) { x = 1.0; return 1.0; }\nvoid main() {}", "does not match"),
            ("subroutine(T) subroutine(T) float f(float x) { return x; }\nvoid main() {}", "too many subroutine qualifiers"),
            ("subroutine float v;\nvoid main() {}", "subroutine uniform only"),
            ("subroutine uniform Nope u;\nvoid main() {}", "`Nope' is not a subroutine type"),
            ("subroutine uniform T u;\nout vec4 o;\nvoid main() { o = vec4(T(1.0)); }", "is a subroutine type"),
            ("subroutine uniform T u;\nsubroutine(T) float f(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(u(1.0, 2.0)); }", "no matching call"),
            ("subroutine uniform T u;\nsubroutine(T) float f(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(u(vec2(1.0))); }", "no matching call"),
            ("subroutine uniform T u[2];\nsubroutine(T) float f(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(u(1.0)); }", "call one of its elements"),
            ("subroutine uniform T u[2];\nsubroutine(T) float f(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(u[2](1.0)); }", "out of bounds"),
            ("subroutine uniform T u;\nsubroutine(T) float f(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(u[0](1.0)); }", "not an array"),
            ("float g(float x) { return x; }\nout vec4 o;\nvoid main() { o = vec4(g[0](1.0)); }", "not an array of subroutine uniforms"),
            ("subroutine uniform T u;\nsubroutine(T) float f(float x) { return u(x); }\nout vec4 o;\nvoid main() { o = vec4(u(1.0)); }", "recursive call"),
            ("subroutine(T) float f(float x) { return x; }\nfloat f(int x) { return 1.0; }\nvoid main() {}", "overloaded"),
            ("float f(int x) { return 1.0; }\nsubroutine(T) float f(float x) { return x; }\nvoid main() {}", "overloaded"),
            ("float T(float x) { return x; }\nvoid main() {}", "name of a subroutine type"),
            ("float T(float y);\nvoid main() {}", "name of a subroutine type"),
            ("layout(index = 1) subroutine(T) float f(float x) { return x; }\nvoid main() {}", "GL_ARB_explicit_uniform_location"),
            ("layout(location = 1) subroutine uniform T u;\nvoid main() {}", "GL_ARB_explicit_uniform_location"),
            ("void main() { subroutine float x; }", "not allowed on local variables"),
        ] {
            fails(&format!("{sig}{src}"), want);
        }
        // Two subroutine types, one recursing through the other.
        fails(
            "subroutine void A(int n);
subroutine void B(int n);
subroutine uniform A a;
subroutine uniform B b;
subroutine(A) void fa(int n) { if (n > 0) b(n - 1); }
subroutine(B) void fb(int n) { if (n > 0) a(n - 1); }
void main() { a(3); }",
            "recursive call",
        );
        // `subroutine` is an identifier without the extension below GLSL 4.00.
        assert!(
            compile(
                Stage::Fragment,
                "#version 150\nfloat subroutine;\nvoid main() {}"
            )
            .compiled
        );
    }

    #[test]
    fn explicit_indices_and_locations_must_not_collide() {
        let head = "#extension GL_ARB_explicit_uniform_location : require
subroutine float T(float x);\n";
        fails(
            &format!(
                "{head}layout(index = 2) subroutine(T) float f(float x) {{ return x; }}
layout(index = 2) subroutine(T) float g(float x) {{ return x; }}
void main() {{}}"
            ),
            "used twice",
        );
        fails(
            &format!(
                "{head}layout(location = 1) subroutine uniform T u[2];
layout(location = 2) subroutine uniform T v;
void main() {{}}"
            ),
            "another one uses",
        );
        fails(
            &format!("{head}layout(location = 1023) subroutine uniform T u[2];\nvoid main() {{}}"),
            "GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS",
        );
        fails(
            &format!("{head}layout(index = 256) subroutine(T) float f(float x) {{ return x; }}\nvoid main() {{}}"),
            "GL_MAX_SUBROUTINES",
        );
    }

    #[test]
    fn shaders_without_subroutines_have_no_hidden_uniform() {
        let m = ok("out vec4 o;\nsubroutine float T();\nvoid main() { o = vec4(1.0); }");
        assert!(m.uniforms.is_empty());
        assert!(m.subroutines.uniforms.is_empty());
        // Core GLSL 4.00 needs no extension.
        let out = compile(
            Stage::Vertex,
            "#version 400\nsubroutine vec4 P();\nsubroutine uniform P p;\nsubroutine(P) vec4 a() { return vec4(1.0); }\nvoid main() { gl_Position = p(); }",
        );
        assert!(out.compiled, "{}", out.info_log);
    }
}
