//! Semantic checks and lowering, one pass: walks the AST, checks types, qualifiers and
//! version/extension rules, and emits the scalarized IR (`ir::Module`) at the same time.
//! Owns the lowering context, scopes, global declarations (interface, uniforms, blocks) and
//! statements. Places (lvalues, storage) live in `place.rs`, expressions in `expr.rs`,
//! built-in functions in `builtins.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use crate::ir::{
    self, BaseType, Builtin, BuiltinOutput, Function, InterfaceVar, Interpolation, Label, Op,
    Scalar, ScalarKind, Stage, Stmt, UniformDecl, ValueType, Var,
};

use super::ast::{self, Expr, ExprKind, External, InterpQual, Qualifiers, StmtKind, Storage};
use super::consts::{self, CVal};
use super::diag::{Diagnostic, Span};
use super::preprocess::Profile;
use super::types::{self, builtin_type, vt, StructDef, Type};

/// Errors are pushed to `Lowerer::diags`; `Err(())` just unwinds to the statement.
pub type R<T> = Result<T, ()>;

/// Where a variable's words live.
#[derive(Clone, Debug)]
pub enum Root {
    /// IR vars, tightly laid out (locals, globals, params, inputs copied at entry, outputs).
    Vars(Rc<[Var]>),
    /// Default uniform block words from this base.
    Uniform(u32),
    /// Uniform block `block`, std140.
    Block { block: u32, row_major: bool },
    /// An instanced array of blocks: element k is block `first + k`.
    BlockArray { first: u32, row_major: bool },
}

#[derive(Clone, Debug)]
pub struct VarSym {
    pub ty: Type,
    pub root: Root,
    /// Byte (blocks) or word offset of the variable inside its root.
    pub base: u32,
    pub writable: bool,
    pub konst: Option<CVal>,
}

#[derive(Clone, Debug)]
pub enum Sym {
    Var(Rc<VarSym>),
    Struct(Rc<StructDef>),
}

/// A user function: its AST and checked signature.
pub struct FnDef {
    pub decl: Rc<ast::FunctionDecl>,
    pub params: Vec<(Type, ParamDir)>,
    pub ret: Type,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamDir {
    In,
    Out,
    InOut,
}

/// The param vars (for copy-out) and the return value of an inlined call.
pub type Inlined = (Vec<Rc<[Var]>>, Option<Value>);

/// What `break` exits.
#[derive(Copy, Clone, Debug)]
pub enum BreakTarget {
    Loop(Label),
    Switch(Label),
}

/// An inlined call in progress.
pub struct CallFrame {
    pub name: String,
    pub label: Label,
    pub ret: Option<(Type, Rc<[Var]>)>,
}

/// A value: its type and its flattened words.
#[derive(Clone, Debug)]
pub struct Value {
    pub ty: Type,
    pub vars: Vec<Var>,
}

/// An output of the stage before slots are assigned.
struct PendingOutput {
    var: InterfaceVar,
    vars: Rc<[Var]>,
}

/// Inlining stops with an error past this many vars (a call tree can grow exponentially).
const MAX_VARS: usize = 1 << 21;

/// Extensions this front end implements (`#extension` with `require` on others fails).
const SUPPORTED_EXTENSIONS: &[&str] = &[
    "GL_ARB_bindless_texture",
    "GL_ARB_gpu_shader_int64",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_fragment_coord_conventions",
    "GL_ARB_derivative_control",
];

pub struct Lowerer {
    pub stage: Stage,
    pub version: u32,
    pub profile: Profile,
    pub bindless: bool,
    pub int64: bool,
    pub explicit_location: bool,
    pub diags: Vec<Diagnostic>,
    pub func: Function,
    /// The statement list being emitted into.
    pub cur: Vec<Stmt>,
    /// Runs first with every lane active: constants, inputs, built-in inputs.
    pub prologue: Vec<Stmt>,
    pub consts: HashMap<(u8, u32), Var>,
    pub scopes: Vec<HashMap<String, Sym>>,
    pub funcs: HashMap<String, Vec<Rc<FnDef>>>,
    pub next_label: u32,
    pub breaks: Vec<BreakTarget>,
    pub calls: Vec<CallFrame>,
    pub inputs: Vec<InterfaceVar>,
    next_input_slot: u32,
    outputs: Vec<PendingOutput>,
    pub uniforms: Vec<UniformDecl>,
    pub uniform_words: u32,
    pub blocks: Vec<ir::BlockDecl>,
    pub uses_discard: bool,
    pub writes_depth: bool,
    pub early_fragment_tests: bool,
    pub global_bindless: bool,
    pub global_bound: bool,
    pub used_frag_color: Option<Span>,
    pub user_frag_output: Option<Span>,
    /// Set while checking a function body that is not being inlined (diagnostics only).
    pub dry_run: bool,
}

/// Reports an error and returns `Err(())`.
#[macro_export]
macro_rules! bail {
    ($self:expr, $span:expr, $($fmt:tt)*) => {{
        $self.error($span, format!($($fmt)*));
        return Err(());
    }};
}
pub use bail;

/// Swizzle letters to component indices; all from one set (xyzw, rgba, stpq), at most 4.
pub fn swizzle_indices(s: &str) -> Option<Vec<u32>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let sets = ["xyzw", "rgba", "stpq"];
    for set in sets {
        let idx: Option<Vec<u32>> = s.chars().map(|c| set.find(c).map(|i| i as u32)).collect();
        if let Some(v) = idx {
            return Some(v);
        }
    }
    None
}

impl Lowerer {
    pub fn new(stage: Stage, version: u32, profile: Profile) -> Self {
        Lowerer {
            stage,
            version,
            profile,
            bindless: false,
            int64: false,
            explicit_location: false,
            diags: Vec::new(),
            func: Function::default(),
            cur: Vec::new(),
            prologue: Vec::new(),
            consts: HashMap::new(),
            scopes: vec![HashMap::new()],
            funcs: HashMap::new(),
            next_label: 0,
            breaks: Vec::new(),
            calls: Vec::new(),
            inputs: Vec::new(),
            next_input_slot: 0,
            outputs: Vec::new(),
            uniforms: Vec::new(),
            uniform_words: 0,
            blocks: Vec::new(),
            uses_discard: false,
            writes_depth: false,
            early_fragment_tests: false,
            global_bindless: false,
            global_bound: false,
            used_frag_color: None,
            user_frag_output: None,
            dry_run: false,
        }
    }

    pub fn error(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::error(span, msg));
    }
    pub fn warning(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::warning(span, msg));
    }

    /// Applies `#extension` directives (GLSL 4.60 §3.3).
    pub fn set_extensions(
        &mut self,
        exts: &[(String, super::preprocess::ExtBehavior, Span)],
    ) -> (bool, bool) {
        use super::preprocess::ExtBehavior as B;
        for (name, beh, span) in exts {
            let on = matches!(beh, B::Enable | B::Require | B::Warn);
            if name == "all" {
                if matches!(beh, B::Enable | B::Require) {
                    self.error(
                        *span,
                        "cannot enable or require all extensions; use warn or disable".to_string(),
                    );
                }
                continue;
            }
            if !SUPPORTED_EXTENSIONS.contains(&name.as_str()) {
                match beh {
                    B::Require => self.error(*span, format!("extension `{name}' unsupported")),
                    B::Enable | B::Warn => {
                        self.warning(*span, format!("extension `{name}' unsupported"))
                    }
                    B::Disable => {}
                }
                continue;
            }
            match name.as_str() {
                "GL_ARB_bindless_texture" => self.bindless = on,
                "GL_ARB_gpu_shader_int64" => self.int64 = on,
                "GL_ARB_explicit_attrib_location" | "GL_ARB_separate_shader_objects" => {
                    self.explicit_location = on
                }
                _ => {}
            }
        }
        (self.bindless, self.int64)
    }

    // ---- vars, constants, labels ----

    pub fn new_var(&mut self, k: ScalarKind) -> Var {
        let v = Var(self.func.vars.len() as u32);
        self.func.vars.push(k);
        v
    }
    pub fn kind_of(&self, v: Var) -> ScalarKind {
        self.func
            .vars
            .get(v.0 as usize)
            .copied()
            .unwrap_or(ScalarKind::F32)
    }
    pub fn new_vars_for(&mut self, ty: &Type) -> Vec<Var> {
        let mut kinds = Vec::new();
        ty.word_kinds(&mut kinds);
        kinds.into_iter().map(|k| self.new_var(k)).collect()
    }
    pub fn emit(&mut self, s: Stmt) {
        self.cur.push(s);
    }
    pub fn assign(&mut self, k: ScalarKind, op: Op) -> Var {
        let v = self.new_var(k);
        self.emit(Stmt::Assign { dst: v, op });
        v
    }
    /// A var holding the constant in every lane (assigned in the prologue).
    pub fn konst(&mut self, s: Scalar) -> Var {
        let key = (s.kind() as u8, s.bits());
        if let Some(v) = self.consts.get(&key) {
            return *v;
        }
        let v = self.new_var(s.kind());
        self.prologue.push(Stmt::Assign {
            dst: v,
            op: Op::Const(s),
        });
        self.consts.insert(key, v);
        v
    }
    pub fn new_label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label - 1)
    }
    /// Runs `f` emitting into a fresh list and returns that list.
    pub fn collect(&mut self, f: impl FnOnce(&mut Self) -> R<()>) -> (Vec<Stmt>, R<()>) {
        let saved = std::mem::take(&mut self.cur);
        let r = f(self);
        let body = std::mem::replace(&mut self.cur, saved);
        (body, r)
    }

    // ---- scopes ----

    pub fn lookup(&mut self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.get(name) {
                return Some(sym.clone());
            }
        }
        if name.starts_with("gl_") {
            return self.builtin_var(name);
        }
        None
    }
    pub fn lookup_const(&self, name: &str) -> Option<CVal> {
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.get(name) {
                return match sym {
                    Sym::Var(v) => v.konst.clone(),
                    Sym::Struct(_) => None,
                };
            }
        }
        None
    }
    fn lookup_array_len(&self, name: &str) -> Option<u32> {
        for s in self.scopes.iter().rev() {
            if let Some(Sym::Var(v)) = s.get(name) {
                return match v.ty {
                    Type::Array(_, n) => Some(n),
                    _ => None,
                };
            }
        }
        None
    }
    pub fn const_eval(&self, e: &Expr) -> Option<CVal> {
        consts::eval(
            e,
            &|n| self.lookup_const(n),
            &|n| self.lookup_array_len(n),
            0,
        )
    }
    pub fn declare(&mut self, name: &str, span: Span, sym: Sym) -> R<()> {
        if name.starts_with("gl_") {
            bail!(self, span, "identifier `{name}' uses reserved `gl_' prefix");
        }
        let top = self.scopes.len() - 1;
        let global = top == 0;
        if let Some(old) = self.scopes[top].get(name) {
            // A function parameter scope and the body share a level in GLSL (§4.2.2).
            let _ = old;
            bail!(self, span, "`{name}' redeclared");
        }
        if global && self.funcs.contains_key(name) && matches!(sym, Sym::Var(_)) {
            bail!(self, span, "`{name}' redeclared (it names a function)");
        }
        self.scopes[top].insert(name.to_string(), sym);
        Ok(())
    }

    // ---- types ----

    /// Resolves a written type (without declarator dims).
    pub fn resolve_type(&mut self, ts: &ast::TypeSpec) -> R<Type> {
        let base = if let Some(sd) = &ts.struct_def {
            let def = self.declare_struct(sd)?;
            Type::Struct(def)
        } else if let Some(t) = builtin_type(&ts.name) {
            match t {
                Ok(t) => t,
                Err(msg) => bail!(self, ts.span, "{msg}"),
            }
        } else {
            match self.lookup(&ts.name) {
                Some(Sym::Struct(s)) => Type::Struct(s),
                _ => bail!(self, ts.span, "unknown type `{}'", ts.name),
            }
        };
        if let Type::Basic(v) = base {
            if v.base == BaseType::Uint64 && !self.int64 {
                bail!(
                    self,
                    ts.span,
                    "`{}' requires GL_ARB_gpu_shader_int64",
                    ts.name
                );
            }
        }
        self.apply_dims(base, &ts.dims, None, ts.span)
    }

    /// Wraps `base` in array dimensions; an unsized outer dimension takes `unsized_len`.
    pub fn apply_dims(
        &mut self,
        base: Type,
        dims: &[Option<Expr>],
        unsized_len: Option<u32>,
        span: Span,
    ) -> R<Type> {
        if dims.len() > 1 && self.version < 430 {
            bail!(self, span, "arrays of arrays require GLSL 4.30");
        }
        let mut t = base;
        for (i, d) in dims.iter().enumerate().rev() {
            let n = match d {
                Some(e) => self.array_size(e)?,
                None => match (i, unsized_len) {
                    (0, Some(n)) => n,
                    _ => bail!(self, span, "array size must be given (unsized array)"),
                },
            };
            if matches!(t, Type::Void) {
                bail!(self, span, "array of void");
            }
            t = Type::Array(Box::new(t), n);
        }
        if t.words() > 1 << 20 {
            bail!(self, span, "type is too large");
        }
        Ok(t)
    }

    pub fn array_size(&mut self, e: &Expr) -> R<u32> {
        match self.const_eval(e).and_then(|c| c.as_index()) {
            Some(n) if n > 0 && n <= 1 << 16 => Ok(n as u32),
            Some(_) => bail!(self, e.span, "array size must be greater than zero"),
            None => bail!(
                self,
                e.span,
                "array size must be a constant valued expression"
            ),
        }
    }

    pub fn declare_struct(&mut self, sd: &ast::StructDecl) -> R<Rc<StructDef>> {
        let mut members: Vec<(String, Type)> = Vec::new();
        for m in &sd.members {
            let mt = self.resolve_type(&m.ty)?;
            if matches!(mt, Type::Void) {
                bail!(self, m.ty.span, "struct member cannot be void");
            }
            for (n, dims, sp) in &m.names {
                let t = self.apply_dims(mt.clone(), dims, None, *sp)?;
                if members.iter().any(|(x, _)| x == n) {
                    bail!(self, *sp, "duplicate struct member `{n}'");
                }
                members.push((n.clone(), t));
            }
        }
        if members.is_empty() {
            bail!(self, sd.span, "empty struct");
        }
        let def = Rc::new(StructDef {
            name: sd.name.clone().unwrap_or_else(|| "<anonymous>".to_string()),
            members,
        });
        if let Some(n) = &sd.name {
            self.declare(n, sd.span, Sym::Struct(def.clone()))?;
        }
        Ok(def)
    }

    // ---- translation unit ----

    pub fn lower_unit(&mut self, unit: Vec<External>) {
        if self.stage == Stage::Vertex {
            // Outputs always include gl_Position (module.rs).
            let _ = self.builtin_var("gl_Position");
        }
        let mut main: Option<Rc<ast::FunctionDecl>> = None;
        for ext in unit {
            match ext {
                External::Var(vd) => {
                    let _ = self.global_var(&vd);
                }
                External::Block(b) => {
                    let _ = self.uniform_block(&b);
                }
                External::Function(f) => {
                    let f = Rc::new(f);
                    if f.name == "main" {
                        if !f.params.is_empty() {
                            self.error(f.span, "main() cannot take parameters".to_string());
                        }
                        if f.ret.name != "void" || !f.ret.dims.is_empty() {
                            self.error(f.span, "main() must return void".to_string());
                        }
                        if f.body.is_some() {
                            if main.is_some() {
                                self.error(f.span, "function `main' redefined".to_string());
                            }
                            main = Some(f);
                        }
                        continue;
                    }
                    let _ = self.function_decl(f);
                }
                External::Qualifiers(q, names) => {
                    let _ = self.global_qualifiers(&q, &names);
                }
                External::Precision => {}
            }
        }
        let Some(main) = main else {
            self.error(
                Span {
                    source: 0,
                    line: 1,
                    column: 1,
                },
                "main function not defined".to_string(),
            );
            return;
        };
        self.scopes.push(HashMap::new());
        if let Some(body) = &main.body {
            for s in body {
                let _ = self.stmt(s);
            }
        }
        self.scopes.pop();
        if let (Some(a), Some(_)) = (self.used_frag_color, self.user_frag_output) {
            self.error(
                a,
                "gl_FragColor cannot be used together with user-defined outputs".to_string(),
            );
        }
    }

    /// Builds the module once lowering succeeded.
    pub fn finish(mut self) -> (Option<ir::Module>, Vec<Diagnostic>) {
        let mut body = std::mem::take(&mut self.prologue);
        body.append(&mut self.cur);
        self.func.body = body;
        // Slots: built-in outputs first (vertex), then user outputs in declaration order.
        let mut outs = std::mem::take(&mut self.outputs);
        outs.sort_by_key(|o| match o.var.builtin {
            Some(BuiltinOutput::Position) => 0,
            Some(BuiltinOutput::PointSize) => 1,
            Some(BuiltinOutput::FragDepth) => 3,
            None => 2,
        });
        let located = outs.iter().filter(|o| o.var.builtin.is_none()).count();
        let mut slot = 0;
        let mut outputs = Vec::new();
        for mut o in outs {
            o.var.slot = slot;
            slot += o.var.words;
            if self.stage == Stage::Fragment
                && o.var.builtin.is_none()
                && o.var.location.is_none()
                && located == 1
            {
                o.var.location = Some(0);
            }
            self.func.outputs.extend(o.vars.iter().copied());
            outputs.push(o.var);
        }
        if self.global_bindless || self.global_bound {
            for u in &mut self.uniforms {
                if u.ty.base == BaseType::Sampler2D {
                    u.bindless |= self.global_bindless && !u.bound;
                    u.bound |= self.global_bound && !u.bindless;
                }
            }
        }
        let has_error = self
            .diags
            .iter()
            .any(|d| d.severity == super::diag::Severity::Error);
        let mut diags = std::mem::take(&mut self.diags);
        diags.sort_by_key(|d| (d.span, d.severity == super::diag::Severity::Warning));
        diags.dedup();
        if has_error {
            return (None, diags);
        }
        let m = ir::Module {
            stage: self.stage,
            version: self.version,
            func: self.func,
            inputs: self.inputs,
            outputs,
            uniforms: self.uniforms,
            uniform_words: self.uniform_words,
            blocks: self.blocks,
            uses_discard: self.uses_discard,
            writes_depth: self.writes_depth,
            early_fragment_tests: self.early_fragment_tests,
            global_bindless_sampler: self.global_bindless,
            global_bound_sampler: self.global_bound,
        };
        (Some(m), diags)
    }

    fn legacy_allowed(&self) -> bool {
        self.version <= 130 || self.profile == Profile::Compatibility
    }

    /// `layout(...) uniform;`, `layout(early_fragment_tests) in;`, `invariant gl_Position;`
    fn global_qualifiers(&mut self, q: &Qualifiers, names: &[String]) -> R<()> {
        if !names.is_empty() {
            for n in names {
                if self.lookup(n).is_none() {
                    bail!(self, q.span, "`{n}' undeclared");
                }
            }
            return Ok(());
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
                ("early_fragment_tests", Some(Storage::In)) if self.stage == Stage::Fragment => {
                    self.early_fragment_tests = true
                }
                ("std140" | "shared" | "packed" | "std430" | "row_major" | "column_major", _) => {}
                (
                    "origin_upper_left"
                    | "pixel_center_integer"
                    | "depth_any"
                    | "depth_greater"
                    | "depth_less"
                    | "depth_unchanged",
                    _,
                ) => {}
                (n, _) => bail!(self, l.span, "layout qualifier `{n}' is not valid here"),
            }
        }
        Ok(())
    }

    pub fn need_bindless(&mut self, span: Span, what: &str) -> R<()> {
        if !self.bindless {
            bail!(self, span, "{what} requires GL_ARB_bindless_texture");
        }
        Ok(())
    }

    fn layout_int(&mut self, l: &ast::LayoutQual) -> R<i64> {
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

    /// A global variable declaration: plain global, const, uniform, in or out.
    fn global_var(&mut self, vd: &ast::VarDecl) -> R<()> {
        let q = &vd.quals;
        let base = self.resolve_type(&vd.ty)?;
        if vd.decls.is_empty() {
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
            let ty = self
                .apply_dims(base.clone(), &d.dims, init_len, d.span)
                .unwrap_or_else(|_| base.clone());
            let r = match storage {
                Some(Storage::Uniform) => self.uniform_var(q, &ty, d),
                Some(Storage::In) => self.input_var(q, &ty, d),
                Some(Storage::Out) => self.output_var(q, &ty, d),
                _ => {
                    for l in &q.layout {
                        self.error(l.span, format!("layout `{}' is not valid here", l.name));
                    }
                    self.local_var(q, &ty, d)
                }
            };
            if r.is_err() {
                self.declare_dummy(&d.name, &ty);
            }
        }
        Ok(())
    }

    /// The effective storage of a global declaration (attribute/varying mapped to in/out).
    fn global_storage(&mut self, q: &Qualifiers) -> R<Option<Storage>> {
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
    fn declare_dummy(&mut self, name: &str, ty: &Type) {
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
        if ty.contains_sampler() && !self.bindless {
            bail!(
                self,
                d.span,
                "sampler variables must be uniform or function parameters (without GL_ARB_bindless_texture)"
            );
        }
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
                konst = self.const_eval(init).and_then(|c| {
                    let b = ty.basic()?;
                    let vals = c
                        .vals
                        .iter()
                        .map(|s| consts::convert_scalar(*s, b.base))
                        .collect::<Option<Vec<_>>>()?;
                    (c.ty.words() == ty.words()).then(|| CVal {
                        ty: ty.clone(),
                        vals,
                    })
                });
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

    fn uniform_var(&mut self, q: &Qualifiers, ty: &Type, d: &ast::Declarator) -> R<()> {
        let (mut bindless, mut bound, mut binding) = (false, false, None);
        for l in &q.layout {
            match l.name.as_str() {
                "bindless_sampler" | "bound_sampler" => {
                    self.need_bindless(l.span, &format!("layout({})", l.name))?;
                    if !ty.contains_sampler() {
                        bail!(self, l.span, "layout({}) applies only to samplers", l.name);
                    }
                    if l.name == "bindless_sampler" {
                        bindless = true
                    } else {
                        bound = true
                    }
                }
                "binding" => binding = Some(self.layout_int(l)? as i32),
                "location" => {
                    self.layout_int(l)?;
                }
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
        if d.init.is_some() {
            self.warning(
                d.span,
                format!("initializer of uniform `{}' is ignored", d.name),
            );
        }
        let offset = self.uniform_words;
        self.uniform_words = self.uniform_words.saturating_add(ty.words());
        let mut leaves = Vec::new();
        uniform_leaves(&d.name, ty, offset, &mut leaves);
        for (name, vt, len, off) in leaves {
            self.uniforms.push(UniformDecl {
                name,
                ty: vt,
                array_len: len,
                offset: off,
                stride: vt.words(),
                bindless: bindless && vt.base == BaseType::Sampler2D,
                bound: bound && vt.base == BaseType::Sampler2D,
                binding: if vt.base == BaseType::Sampler2D {
                    binding
                } else {
                    None
                },
            });
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

    fn interface_location(&mut self, q: &Qualifiers) -> R<Option<u32>> {
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
                n => bail!(self, l.span, "layout qualifier `{n}' is not valid here"),
            }
        }
        Ok(loc)
    }

    fn interp(&self, q: &Qualifiers) -> Interpolation {
        match q.interp {
            Some(InterpQual::Flat) => Interpolation::Flat,
            Some(InterpQual::NoPerspective) => Interpolation::NoPerspective,
            _ => Interpolation::Smooth,
        }
    }

    fn check_interface_type(&mut self, ty: &Type, q: &Qualifiers, span: Span, dir: &str) -> R<()> {
        let (elem, len) = match ty {
            Type::Array(e, n) => (&**e, Some(*n)),
            t => (t, None),
        };
        let _ = len;
        let Some(b) = elem.basic() else {
            bail!(self, span, "{dir} variables of this type are not supported");
        };
        if b.base == BaseType::Bool {
            bail!(self, span, "{dir} variables cannot be bool");
        }
        let vertex_in = self.stage == Stage::Vertex && dir == "input";
        if b.base == BaseType::Sampler2D {
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
        if self.stage == Stage::Fragment && dir == "output" && b.cols > 1 {
            bail!(self, span, "fragment outputs cannot be matrices");
        }
        Ok(())
    }

    fn input_var(&mut self, q: &Qualifiers, ty: &Type, d: &ast::Declarator) -> R<()> {
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
        let b = elem.basic().unwrap_or(vt(BaseType::Float, 1, 1));
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
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars.into()),
            base: 0,
            writable: false,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    fn output_var(&mut self, q: &Qualifiers, ty: &Type, d: &ast::Declarator) -> R<()> {
        let loc = self.interface_location(q)?;
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
        let b = elem.basic().unwrap_or(vt(BaseType::Float, 1, 1));
        self.outputs.push(PendingOutput {
            var: InterfaceVar {
                name: d.name.clone(),
                ty: b,
                array_len: len,
                location: loc,
                slot: 0,
                words: ty.words(),
                interpolation: self.interp(q),
                builtin: None,
            },
            vars: vars.clone(),
        });
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars),
            base: 0,
            writable: true,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    /// `layout(std140, binding = N) uniform Name { ... } inst;` (GL 4.5 §7.6.2.2).
    fn uniform_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        match b.quals.storage {
            Some(Storage::Uniform) => {}
            Some(Storage::Buffer) => bail!(self, b.span, "shader storage blocks are not supported"),
            Some(Storage::In) | Some(Storage::Out) => {
                bail!(self, b.span, "in/out interface blocks are not supported")
            }
            _ => bail!(self, b.span, "interface block needs a storage qualifier"),
        }
        if self.version < 140 {
            bail!(self, b.span, "uniform blocks require GLSL 1.40");
        }
        let mut binding = None;
        let mut row_major = false;
        for l in &b.quals.layout {
            match l.name.as_str() {
                "std140" | "shared" | "packed" | "column_major" => {}
                "row_major" => row_major = true,
                "binding" => binding = Some(self.layout_int(l)? as u32),
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
            block_leaves(&prefix, t, *off, row_major, &mut reflected);
        }
        let count = match &b.instance {
            Some((_, dims)) if !dims.is_empty() => {
                let t = self.apply_dims(Type::Void, &[], None, b.span);
                let _ = t;
                if dims.len() > 1 {
                    bail!(self, b.span, "arrays of arrays of blocks are not supported");
                }
                match &dims[0] {
                    Some(e) => Some(self.array_size(e)?),
                    None => bail!(self, b.span, "block array must be sized"),
                }
            }
            _ => None,
        };
        let first = self.blocks.len() as u32;
        for k in 0..count.unwrap_or(1) {
            let name = match count {
                Some(_) => format!("{}[{k}]", b.name),
                None => b.name.clone(),
            };
            self.blocks.push(ir::BlockDecl {
                name,
                binding: binding.map(|x| x + k),
                size: types::round_up(size, 16),
                members: reflected.clone(),
            });
        }
        match &b.instance {
            Some((inst, _)) => {
                let (ty, root) = match count {
                    Some(n) => (
                        Type::Array(Box::new(Type::Struct(def)), n),
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

    /// Registers a function prototype or definition and checks its body once.
    fn function_decl(&mut self, f: Rc<ast::FunctionDecl>) -> R<()> {
        let ret = self.resolve_type(&f.ret)?;
        let mut params = Vec::new();
        for p in &f.params {
            let t = self.resolve_type(&p.ty)?;
            if matches!(t, Type::Void) {
                bail!(self, p.span, "function parameter cannot be void");
            }
            let dir = match p.quals.storage {
                None | Some(Storage::In) | Some(Storage::Const) => ParamDir::In,
                Some(Storage::Out) => ParamDir::Out,
                Some(Storage::InOut) => ParamDir::InOut,
                _ => bail!(self, p.span, "invalid qualifier on a function parameter"),
            };
            if t.contains_sampler() && dir != ParamDir::In && !self.bindless {
                bail!(self, p.span, "sampler parameters must be `in'");
            }
            params.push((t, dir));
        }
        if builtin_type(&f.name).is_some() {
            bail!(self, f.span, "`{}' is a type name", f.name);
        }
        if self.scopes[0].contains_key(&f.name) {
            bail!(self, f.span, "`{}' redeclared as a function", f.name);
        }
        let list = self.funcs.entry(f.name.clone()).or_default();
        if let Some(i) = list.iter().position(|d| {
            d.params
                .iter()
                .map(|p| &p.0)
                .eq(params.iter().map(|p| &p.0))
        }) {
            let old = &list[i];
            if old.ret != ret {
                let n = f.name.clone();
                bail!(
                    self,
                    f.span,
                    "function `{n}' redeclared with a different return type"
                );
            }
            if old
                .params
                .iter()
                .map(|p| p.1)
                .ne(params.iter().map(|p| p.1))
            {
                let n = f.name.clone();
                bail!(
                    self,
                    f.span,
                    "function `{n}' redeclared with different qualifiers"
                );
            }
            if old.decl.body.is_some() && f.body.is_some() {
                let n = f.name.clone();
                bail!(self, f.span, "function `{n}' redefined");
            }
            if f.body.is_some() {
                list[i] = Rc::new(FnDef {
                    decl: f.clone(),
                    params,
                    ret,
                });
            }
        } else {
            list.push(Rc::new(FnDef {
                decl: f.clone(),
                params,
                ret,
            }));
        }
        // Check the body once, so errors in functions main never calls are reported too.
        if f.body.is_some() {
            let def = self
                .funcs
                .get(&f.name)
                .and_then(|l| l.iter().find(|d| Rc::ptr_eq(&d.decl, &f)).cloned());
            if let Some(def) = def {
                let saved = (self.uses_discard, self.writes_depth, self.dry_run);
                self.dry_run = true;
                let (_, _) = self.collect(|s| {
                    let args: Vec<Value> = def
                        .params
                        .iter()
                        .map(|(t, _)| {
                            let vars = s.new_vars_for(t);
                            Value {
                                ty: t.clone(),
                                vars,
                            }
                        })
                        .collect();
                    s.inline_body(&def, args, f.span).map(|_| ())
                });
                self.uses_discard = saved.0;
                self.writes_depth = saved.1;
                self.dry_run = saved.2;
            }
        }
        Ok(())
    }

    /// Inlines a function body with the given parameter values; returns the param vars
    /// (for copy-out) and the return value.
    pub fn inline_body(&mut self, def: &Rc<FnDef>, args: Vec<Value>, span: Span) -> R<Inlined> {
        if self.calls.iter().any(|c| c.name == def.decl.name) {
            bail!(self, span, "recursive call to function `{}'", def.decl.name);
        }
        if self.calls.len() > 64 {
            bail!(self, span, "function calls nested too deeply");
        }
        if self.func.vars.len() > MAX_VARS {
            bail!(
                self,
                span,
                "shader is too large after inlining function calls"
            );
        }
        let Some(body) = def.decl.body.clone() else {
            if self.dry_run {
                // Checking a body before its callee is defined (a prototype was declared):
                // stand in fresh values; the real inlining from main will need the body.
                let pv = def
                    .params
                    .iter()
                    .map(|(t, _)| Rc::from(self.new_vars_for(t)))
                    .collect();
                let ret = match &def.ret {
                    Type::Void => None,
                    t => Some(Value {
                        ty: t.clone(),
                        vars: self.new_vars_for(t),
                    }),
                };
                return Ok((pv, ret));
            }
            bail!(self, span, "function `{}' has no definition", def.decl.name);
        };
        let label = self.new_label();
        let ret = match &def.ret {
            Type::Void => None,
            t => Some((t.clone(), Rc::from(self.new_vars_for(t)))),
        };
        // The body sees globals and its own scope only.
        let saved_scopes = self.scopes.split_off(1);
        let saved_breaks = std::mem::take(&mut self.breaks);
        self.scopes.push(HashMap::new());
        let mut param_vars = Vec::new();
        let mut result = Ok(());
        for ((p, (t, _)), a) in def.decl.params.iter().zip(&def.params).zip(args) {
            let vars: Rc<[Var]> = self.new_vars_for(t).into();
            for (d, s) in vars.iter().zip(&a.vars) {
                self.emit(Stmt::Assign {
                    dst: *d,
                    op: Op::Copy(*s),
                });
            }
            param_vars.push(vars.clone());
            if let Some(n) = &p.name {
                let sym = VarSym {
                    ty: t.clone(),
                    root: Root::Vars(vars),
                    base: 0,
                    writable: p.quals.storage != Some(Storage::Const),
                    konst: None,
                };
                if self.declare(n, p.span, Sym::Var(Rc::new(sym))).is_err() {
                    result = Err(());
                }
            }
        }
        self.calls.push(CallFrame {
            name: def.decl.name.clone(),
            label,
            ret: ret.clone(),
        });
        let (stmts, _) = self.collect(|s| {
            for st in &body {
                let _ = s.stmt(st);
            }
            Ok(())
        });
        self.calls.pop();
        self.emit(Stmt::Block { label, body: stmts });
        self.scopes.truncate(1);
        self.scopes.extend(saved_scopes);
        self.breaks = saved_breaks;
        result?;
        let ret = ret.map(|(ty, vars)| {
            // Copy out, so later calls of the same function do not alias the result.
            let vars = vars
                .iter()
                .map(|v| {
                    let k = self.kind_of(*v);
                    self.assign(k, Op::Copy(*v))
                })
                .collect();
            Value { ty, vars }
        });
        Ok((param_vars, ret))
    }

    // ---- built-in variables (GLSL 4.60 §7.1) ----

    fn builtin_var(&mut self, name: &str) -> Option<Sym> {
        let vertex = self.stage == Stage::Vertex;
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
            ("gl_VertexID", true) | ("gl_InstanceID", true) => {
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
            ("gl_FragColor", false)
                if self.version <= 150 || self.profile == Profile::Compatibility =>
            {
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

    // ---- statements ----

    pub fn stmt(&mut self, s: &ast::Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Empty | StmtKind::Precision => Ok(()),
            StmtKind::Decl(vd) => {
                let base = self.resolve_type(&vd.ty)?;
                if vd.quals.interp.is_some() || !vd.quals.layout.is_empty() {
                    bail!(
                        self,
                        vd.quals.span,
                        "qualifier not allowed on local variables"
                    );
                }
                for d in &vd.decls {
                    let init_len = match &d.init {
                        Some(Expr {
                            kind: ExprKind::Call(_, args),
                            ..
                        }) if d.dims.first().is_some_and(|x| x.is_none()) => {
                            Some(args.len() as u32)
                        }
                        Some(Expr {
                            kind: ExprKind::InitList(items),
                            ..
                        }) => Some(items.len() as u32),
                        _ => None,
                    };
                    let init_len = match (&d.init, init_len, base.clone()) {
                        (Some(e), None, _) if d.dims.first().is_some_and(|x| x.is_none()) => {
                            // `float a[] = b;`: the length of the initializer's type.
                            let v = self.const_eval(e).map(|c| c.vals.len() as u32);
                            v.or_else(|| match &e.kind {
                                ExprKind::Ident(n) => self.lookup_array_len(n),
                                _ => None,
                            })
                        }
                        (_, l, _) => l,
                    };
                    let t = self
                        .apply_dims(base.clone(), &d.dims, init_len, d.span)
                        .unwrap_or_else(|_| base.clone());
                    if self.local_var(&vd.quals, &t, d).is_err() {
                        self.declare_dummy(&d.name, &t);
                    }
                }
                Ok(())
            }
            StmtKind::Expr(e) => self.expr(e).map(|_| ()),
            StmtKind::Block(b) => {
                self.scopes.push(HashMap::new());
                for st in b {
                    let _ = self.stmt(st);
                }
                self.scopes.pop();
                Ok(())
            }
            StmtKind::If(c, t, e) => {
                let cond = self.bool_cond(c)?;
                let (then_body, _) = self.collect(|s| s.scoped_stmt(t));
                let (else_body, _) = match e {
                    Some(e) => self.collect(|s| s.scoped_stmt(e)),
                    None => (Vec::new(), Ok(())),
                };
                self.emit(Stmt::If {
                    cond,
                    then_body,
                    else_body,
                });
                Ok(())
            }
            StmtKind::While(c, body) => {
                let label = self.new_label();
                self.scopes.push(HashMap::new());
                let (stmts, _) = self.collect(|s| {
                    let cond = s.bool_cond(c)?;
                    let nc = s.assign(ScalarKind::Bool, Op::Unary(ir::UnaryOp::LogicalNot, cond));
                    s.emit(Stmt::If {
                        cond: nc,
                        then_body: vec![Stmt::Break(label)],
                        else_body: vec![],
                    });
                    s.breaks.push(BreakTarget::Loop(label));
                    let r = s.scoped_stmt(body);
                    s.breaks.pop();
                    r
                });
                self.scopes.pop();
                self.emit(Stmt::Loop {
                    label,
                    body: stmts,
                    continuing: vec![],
                });
                Ok(())
            }
            StmtKind::DoWhile(body, c) => {
                // body first; the condition is checked at the top of every later iteration,
                // so `continue` (which jumps to the end of the body) still tests it.
                let label = self.new_label();
                let first = self.new_var(ScalarKind::Bool);
                let t = self.konst(Scalar::Bool(true));
                let f = self.konst(Scalar::Bool(false));
                self.emit(Stmt::Assign {
                    dst: first,
                    op: Op::Copy(t),
                });
                let (stmts, _) = self.collect(|s| {
                    let (check, r) = s.collect(|s| {
                        let cond = s.bool_cond(c)?;
                        let nc =
                            s.assign(ScalarKind::Bool, Op::Unary(ir::UnaryOp::LogicalNot, cond));
                        s.emit(Stmt::If {
                            cond: nc,
                            then_body: vec![Stmt::Break(label)],
                            else_body: vec![],
                        });
                        Ok(())
                    });
                    r?;
                    s.emit(Stmt::If {
                        cond: first,
                        then_body: vec![],
                        else_body: check,
                    });
                    s.emit(Stmt::Assign {
                        dst: first,
                        op: Op::Copy(f),
                    });
                    s.breaks.push(BreakTarget::Loop(label));
                    let r = s.scoped_stmt(body);
                    s.breaks.pop();
                    r
                });
                self.emit(Stmt::Loop {
                    label,
                    body: stmts,
                    continuing: vec![],
                });
                Ok(())
            }
            StmtKind::For {
                init,
                cond,
                inc,
                body,
            } => {
                self.scopes.push(HashMap::new());
                let r = self.for_loop(init.as_deref(), cond.as_ref(), inc.as_ref(), body);
                self.scopes.pop();
                r
            }
            StmtKind::Switch(sel, body) => self.switch(sel, body, s.span),
            StmtKind::Case(_) | StmtKind::Default => {
                bail!(self, s.span, "case label outside of a switch statement")
            }
            StmtKind::Break => match self.breaks.last() {
                Some(BreakTarget::Loop(l)) => {
                    let l = *l;
                    self.emit(Stmt::Break(l));
                    Ok(())
                }
                Some(BreakTarget::Switch(l)) => {
                    let l = *l;
                    self.emit(Stmt::Leave(l));
                    Ok(())
                }
                None => bail!(self, s.span, "break may only appear in a loop or switch"),
            },
            StmtKind::Continue => {
                let l = self.breaks.iter().rev().find_map(|b| match b {
                    BreakTarget::Loop(l) => Some(*l),
                    _ => None,
                });
                match l {
                    Some(l) => {
                        self.emit(Stmt::Continue(l));
                        Ok(())
                    }
                    None => bail!(self, s.span, "continue may only appear in a loop"),
                }
            }
            StmtKind::Discard => {
                if self.stage != Stage::Fragment {
                    bail!(self, s.span, "discard is only allowed in fragment shaders");
                }
                self.uses_discard = true;
                self.emit(Stmt::Discard);
                Ok(())
            }
            StmtKind::Return(e) => self.return_stmt(e.as_ref(), s.span),
        }
    }

    fn scoped_stmt(&mut self, s: &ast::Stmt) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.stmt(s);
        self.scopes.pop();
        r
    }

    fn return_stmt(&mut self, e: Option<&Expr>, span: Span) -> R<()> {
        let Some(frame) = self.calls.last() else {
            if let Some(e) = e {
                bail!(self, e.span, "main() cannot return a value");
            }
            self.emit(Stmt::Return);
            return Ok(());
        };
        let label = frame.label;
        let ret = frame.ret.clone();
        match (ret, e) {
            (None, None) => {}
            (None, Some(e)) => bail!(self, e.span, "void function cannot return a value"),
            (Some(_), None) => bail!(self, span, "function must return a value"),
            (Some((ty, vars)), Some(e)) => {
                let v = self.expr(e)?;
                let v = self.coerce(v, &ty, e.span)?;
                for (d, s) in vars.iter().zip(&v.vars) {
                    self.emit(Stmt::Assign {
                        dst: *d,
                        op: Op::Copy(*s),
                    });
                }
            }
        }
        self.emit(Stmt::Leave(label));
        Ok(())
    }

    pub fn bool_cond(&mut self, e: &Expr) -> R<Var> {
        let v = self.expr(e)?;
        if v.ty != Type::BOOL {
            bail!(
                self,
                e.span,
                "condition must be a scalar bool, not {}",
                v.ty
            );
        }
        Ok(v.vars[0])
    }

    fn for_loop(
        &mut self,
        init: Option<&ast::Stmt>,
        cond: Option<&Expr>,
        inc: Option<&Expr>,
        body: &ast::Stmt,
    ) -> R<()> {
        if let Some(i) = init {
            self.stmt(i)?;
        }
        let label = self.new_label();
        let (stmts, r) = self.collect(|s| {
            if let Some(c) = cond {
                let cv = s.bool_cond(c)?;
                let nc = s.assign(ScalarKind::Bool, Op::Unary(ir::UnaryOp::LogicalNot, cv));
                s.emit(Stmt::If {
                    cond: nc,
                    then_body: vec![Stmt::Break(label)],
                    else_body: vec![],
                });
            }
            s.breaks.push(BreakTarget::Loop(label));
            let r = s.scoped_stmt(body);
            s.breaks.pop();
            r
        });
        let _ = r;
        let (continuing, r2) = self.collect(|s| match inc {
            Some(e) => s.expr(e).map(|_| ()),
            None => Ok(()),
        });
        self.emit(Stmt::Loop {
            label,
            body: stmts,
            continuing,
        });
        r2
    }

    /// switch → Block with a fallthrough flag and one If per case group (GLSL 4.60 §6.2).
    fn switch(&mut self, sel: &Expr, body: &[ast::Stmt], span: Span) -> R<()> {
        let sv = self.expr(sel)?;
        if !(sv.ty == Type::INT || sv.ty == Type::UINT) {
            bail!(
                self,
                sel.span,
                "switch expression must be a scalar int or uint"
            );
        }
        let selv = sv.vars[0];
        let sel_base = sv.ty.base().unwrap_or(BaseType::Int);
        // Group statements by case labels.
        struct Group<'a> {
            labels: Vec<Option<Scalar>>,
            stmts: Vec<&'a ast::Stmt>,
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut seen: Vec<Option<u32>> = Vec::new();
        let mut prev_label = false;
        for st in body {
            match &st.kind {
                StmtKind::Case(e) => {
                    let c = match self.const_eval(e) {
                        Some(c) if c.ty == Type::INT || c.ty == Type::UINT => c,
                        _ => bail!(
                            self,
                            e.span,
                            "case label must be a constant integer expression"
                        ),
                    };
                    let Some(v) = consts::convert_scalar(c.vals[0], sel_base) else {
                        bail!(self, e.span, "case label type mismatch");
                    };
                    if seen.contains(&Some(v.bits())) {
                        bail!(self, e.span, "duplicate case value");
                    }
                    seen.push(Some(v.bits()));
                    if !prev_label || groups.is_empty() {
                        groups.push(Group {
                            labels: vec![],
                            stmts: vec![],
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.labels.push(Some(v));
                    }
                    prev_label = true;
                }
                StmtKind::Default => {
                    if seen.contains(&None) {
                        bail!(self, st.span, "multiple default labels in one switch");
                    }
                    seen.push(None);
                    if !prev_label || groups.is_empty() {
                        groups.push(Group {
                            labels: vec![],
                            stmts: vec![],
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.labels.push(None);
                    }
                    prev_label = true;
                }
                _ => {
                    let Some(g) = groups.last_mut() else {
                        bail!(
                            self,
                            st.span,
                            "statement before the first case label in switch"
                        );
                    };
                    g.stmts.push(st);
                    prev_label = false;
                }
            }
        }
        if prev_label && !groups.is_empty() && self.version >= 130 {
            // GLSL 4.60 §6.2: a label at the end of a switch needs a statement after it.
            if groups.last().is_some_and(|g| g.stmts.is_empty()) {
                bail!(self, span, "switch ends with a case label and no statement");
            }
        }
        let label = self.new_label();
        let fall = self.new_var(ScalarKind::Bool);
        let f = self.konst(Scalar::Bool(false));
        let t = self.konst(Scalar::Bool(true));
        self.emit(Stmt::Assign {
            dst: fall,
            op: Op::Copy(f),
        });
        let eq_op = ir::BinaryOp::IEq;
        // matched_any: whether some explicit case matches (default runs otherwise).
        let mut any = f;
        let explicit: Vec<Scalar> = groups
            .iter()
            .flat_map(|g| g.labels.iter().flatten().copied())
            .collect();
        let has_default = groups.iter().any(|g| g.labels.contains(&None));
        if has_default {
            for v in &explicit {
                let c = self.konst(*v);
                let e = self.assign(ScalarKind::Bool, Op::Binary(eq_op, selv, c));
                any = self.assign(
                    ScalarKind::Bool,
                    Op::Binary(ir::BinaryOp::LogicalOr, any, e),
                );
            }
        }
        let no_match = if has_default {
            Some(self.assign(ScalarKind::Bool, Op::Unary(ir::UnaryOp::LogicalNot, any)))
        } else {
            None
        };
        self.scopes.push(HashMap::new());
        let (stmts, _) = self.collect(|s| {
            for g in &groups {
                let mut m = fall;
                for l in &g.labels {
                    let e = match l {
                        Some(v) => {
                            let c = s.konst(*v);
                            s.assign(ScalarKind::Bool, Op::Binary(eq_op, selv, c))
                        }
                        None => no_match.unwrap_or(f),
                    };
                    m = s.assign(ScalarKind::Bool, Op::Binary(ir::BinaryOp::LogicalOr, m, e));
                }
                s.emit(Stmt::Assign {
                    dst: fall,
                    op: Op::Copy(m),
                });
                s.breaks.push(BreakTarget::Switch(label));
                let (then_body, _) = s.collect(|s| {
                    for st in &g.stmts {
                        let _ = s.stmt(st);
                    }
                    Ok(())
                });
                s.breaks.pop();
                s.emit(Stmt::If {
                    cond: fall,
                    then_body,
                    else_body: vec![],
                });
            }
            let _ = t;
            Ok(())
        });
        self.scopes.pop();
        self.emit(Stmt::Block { label, body: stmts });
        Ok(())
    }
}

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

/// Leaves of a block member with std140 offsets.
fn block_leaves(
    name: &str,
    ty: &Type,
    offset: u32,
    row_major: bool,
    out: &mut Vec<ir::BlockMember>,
) {
    let mstride = |v: &ValueType| if v.cols > 1 { 16 } else { 0 };
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
            let stride = types::std140_array_stride(e, row_major);
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
                    for k in 0..*n {
                        block_leaves(
                            &format!("{name}[{k}]"),
                            inner,
                            offset + k * stride,
                            row_major,
                            out,
                        );
                    }
                }
            }
        }
        Type::Struct(s) => {
            let offs = types::std140_member_offsets(s, row_major);
            for ((m, t), o) in s.members.iter().zip(offs) {
                block_leaves(&format!("{name}.{m}"), t, offset + o, row_major, out);
            }
        }
        Type::Void => {}
    }
}
