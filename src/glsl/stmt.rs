//! Statements and functions: declarations in bodies, if/loops/switch lowered to the IR's
//! structured forms (`for` → `Loop` with `continuing`, `switch` → `Block` with a fallthrough
//! flag), `break`/`continue`/`return`/`discard`, and user functions — signature checks and
//! inlining at call sites (`Block` + `Leave`).

use std::collections::HashMap;
use std::rc::Rc;

use crate::ir::{self, BaseType, Op, Scalar, ScalarKind, Stage, Stmt, Var};

use super::ast::{self, Expr, ExprKind, StmtKind, Storage};
use super::consts;
use super::diag::Span;
use super::limits::MAX_CALL_NESTING;
use super::lower::*;
use super::types::{builtin_type, Type};

/// A point to roll a checking-only pass back to.
struct Mark {
    vars: usize,
    prologue: usize,
    outputs: usize,
    used_frag_color: Option<(String, Span)>,
}

impl Lowerer {
    /// Registers a function prototype or definition and checks its body once.
    pub(super) fn function_decl(&mut self, f: Rc<ast::FunctionDecl>) -> R<()> {
        let ret = self.resolve_type(&f.ret)?;
        let mut params = Vec::new();
        for p in &f.params {
            let t = self.resolve_type(&p.ty)?;
            let t = self.qualify_image_type(&t, &p.quals, false, p.span)?;
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
            if dir != ParamDir::In {
                // GLSL 4.60 §4.1.7.4: counters "cannot be used as out or inout function
                // parameters".
                self.refuse_atomic_counter(&t, p.span, "out or inout parameters")?;
            }
            params.push((t, dir));
        }
        if builtin_type(&f.name).is_some() {
            bail!(self, f.span, "`{}' is a type name", f.name);
        }
        if let Some((ast::SubroutineQual::Bare, _)) = f.quals.subroutine {
            return self.subroutine_type_decl(&f, ret, params);
        }
        self.check_function_against_subroutines(&f, &params)?;
        if self.scopes[0].contains_key(&f.name) {
            bail!(self, f.span, "`{}' redeclared as a function", f.name);
        }
        let unit = self.unit;
        if self.units.len() > 1 {
            let types: Vec<Type> = params.iter().map(|p| p.0.clone()).collect();
            let seen = self.fn_units.entry(f.name.clone()).or_default();
            if !seen.iter().any(|(t, u)| *u == unit && *t == types) {
                seen.push((types, unit));
            }
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
                    unit,
                });
            }
        } else {
            list.push(Rc::new(FnDef {
                decl: f.clone(),
                params,
                ret,
                unit,
            }));
        }
        // Check the body once, so errors in functions main never calls are reported too.
        if f.body.is_some() {
            let def = self
                .funcs
                .get(&f.name)
                .and_then(|l| l.iter().find(|d| Rc::ptr_eq(&d.decl, &f)).cloned());
            if let Some(def) = def {
                self.subroutine_function(&def)?;
                let saved = (self.uses_discard, self.writes_depth, self.dry_run);
                let mark = self.mark();
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
                self.forget_since(mark);
            }
        }
        Ok(())
    }

    /// What exists now, so a checking-only pass can be undone (`forget_since`).
    fn mark(&self) -> Mark {
        Mark {
            vars: self.func.vars.len(),
            prologue: self.prologue.len(),
            outputs: self.outputs.len(),
            used_frag_color: self.used_frag_color.clone(),
        }
    }

    /// Drops the vars a checking-only pass made, and everything that refers to them (the
    /// constants and built-in inputs it added to the prologue, built-in outputs it
    /// declared), so unused functions do not bloat the module the JIT compiles.
    fn forget_since(&mut self, m: Mark) {
        let n = m.vars;
        self.func.vars.truncate(n);
        self.prologue.truncate(m.prologue);
        self.outputs.truncate(m.outputs);
        self.used_frag_color = m.used_frag_color;
        self.consts.retain(|_, v| (v.0 as usize) < n);
        self.scopes[0].retain(|_, sym| match sym {
            Sym::Var(v) => match &v.root {
                Root::Vars(vs) => vs.iter().all(|x| (x.0 as usize) < n),
                _ => true,
            },
            Sym::Struct(_) => true,
        });
    }

    /// Inlines a function body with the given parameter values; returns the param vars
    /// (for copy-out) and the return value.
    pub fn inline_body(&mut self, def: &Rc<FnDef>, args: Vec<Value>, span: Span) -> R<Inlined> {
        // Set by the caller for this call only (`user_call`).
        let counter_args = std::mem::take(&mut self.counter_args);
        if self.calls.iter().any(|c| c.name == def.decl.name) {
            bail!(self, span, "recursive call to function `{}'", def.decl.name);
        }
        if self.calls.len() >= MAX_CALL_NESTING as usize {
            bail!(
                self,
                span,
                "function calls nested too deeply: more than {MAX_CALL_NESTING} levels (softgl's call nesting limit)"
            );
        }
        if self.too_large || self.func.vars.len() > MAX_VARS {
            self.too_large = true;
            bail!(
                self,
                span,
                "shader is too large after inlining function calls"
            );
        }
        let Some(body) = def.decl.body.clone() else {
            if self.dry_run || !self.linking {
                // Checking a body before its callee is defined (a prototype was declared),
                // or compiling one unit whose callee another unit may define (GLSL 4.60
                // §2.1: an undefined function is a link-time error): stand in fresh
                // values; the link lowers the units again, with the body.
                if !self.dry_run && !self.unresolved.contains(&def.decl.name) {
                    self.unresolved.push(def.decl.name.clone());
                }
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
            bail!(
                self,
                span,
                "function `{}' is called but not defined in any compilation unit of the stage",
                def.decl.name
            );
        };
        // The body is lowered with its own unit's `#version` and `#extension` settings.
        let caller_unit = self.enter_unit(def.unit);
        let r = self.inline_defined(def, body, args, counter_args);
        self.enter_unit(caller_unit);
        r
    }

    /// `inline_body` once the body is known and its unit's settings are in effect.
    fn inline_defined(
        &mut self,
        def: &Rc<FnDef>,
        body: Vec<ast::Stmt>,
        args: Vec<Value>,
        counter_args: Vec<Option<super::place::Place>>,
    ) -> R<Inlined> {
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
        for (k, ((p, (t, _)), a)) in def
            .decl
            .params
            .iter()
            .zip(&def.params)
            .zip(args)
            .enumerate()
        {
            if t.contains_base(BaseType::AtomicUint) {
                let arg = counter_args.get(k).cloned().flatten();
                param_vars.push(a.vars.into());
                if let Some(n) = &p.name {
                    if self.counter_param(n, p.span, t, arg).is_err() {
                        result = Err(());
                    }
                }
                continue;
            }
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

    // ---- statements ----

    /// Lowers one statement: one level of `limits::MAX_INLINED_NESTING`.
    pub fn stmt(&mut self, s: &ast::Stmt) -> R<()> {
        self.enter_nesting(s.span)?;
        let r = self.stmt_kind(s);
        self.leave_nesting();
        r
    }

    fn stmt_kind(&mut self, s: &ast::Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Empty | StmtKind::Precision => Ok(()),
            StmtKind::Decl(vd) => {
                let base = self.resolve_type(&vd.ty)?;
                if vd.quals.interp.is_some()
                    || !vd.quals.layout.is_empty()
                    || vd.quals.subroutine.is_some()
                {
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
                            let v = self.const_eval(e).and_then(|c| match c.ty {
                                Type::Array(_, n) => Some(n),
                                _ => None,
                            });
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

    pub(super) fn scoped_stmt(&mut self, s: &ast::Stmt) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.stmt(s);
        self.scopes.pop();
        r
    }

    pub(super) fn return_stmt(&mut self, e: Option<&Expr>, span: Span) -> R<()> {
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

    pub(super) fn for_loop(
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
    pub(super) fn switch(&mut self, sel: &Expr, body: &[ast::Stmt], span: Span) -> R<()> {
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
        // Lowering, linear in the number of cases (issue #11: the old form compared the
        // selector with every case constant twice, once up front for `default`, once at the
        // case, which kept every comparison live across every case and made Cranelift's
        // register allocator quadratic):
        //   at = (index of the group whose label matches sel) or default's group, or -1;
        //   for each group k: fall = fall || at == 0; if (fall) { statements } at = at - 1;
        // Every value here is assigned once and read by the next group only.
        let label = self.new_label();
        let int = |v: i64| Scalar::I32(v as i32);
        // `found` = 1 + the matching group's index, or 0: at most one label matches, so an OR
        // of `e ? k + 1 : 0` over the labels. The OR keeps the chain its first operand, so
        // Cranelift's elaboration computes each comparison just before it is used instead
        // of all of them first (which kept one mask per case live at once).
        let zero = self.konst(int(0));
        let mut found = zero;
        for (k, g) in groups.iter().enumerate() {
            for v in g.labels.iter().flatten() {
                let c = self.konst(*v);
                let e = self.assign(ScalarKind::Bool, Op::Binary(ir::BinaryOp::IEq, selv, c));
                let kc = self.konst(int(k as i64 + 1));
                let t = self.assign(
                    ScalarKind::I32,
                    Op::Select {
                        cond: e,
                        a: kc,
                        b: zero,
                    },
                );
                found = self.assign(ScalarKind::I32, Op::Binary(ir::BinaryOp::Or, found, t));
            }
        }
        let one = self.konst(int(1));
        let mut at = self.assign(ScalarKind::I32, Op::Binary(ir::BinaryOp::ISub, found, one));
        if let Some(d) = groups.iter().position(|g| g.labels.contains(&None)) {
            let none = self.assign(ScalarKind::Bool, Op::Binary(ir::BinaryOp::IEq, found, zero));
            let dc = self.konst(int(d as i64));
            at = self.assign(
                ScalarKind::I32,
                Op::Select {
                    cond: none,
                    a: dc,
                    b: at,
                },
            );
        }
        let mut fall = self.konst(Scalar::Bool(false));
        self.scopes.push(HashMap::new());
        let (stmts, _) = self.collect(|s| {
            for (k, g) in groups.iter().enumerate() {
                let hit = s.assign(ScalarKind::Bool, Op::Binary(ir::BinaryOp::IEq, at, zero));
                fall = s.assign(
                    ScalarKind::Bool,
                    Op::Binary(ir::BinaryOp::LogicalOr, fall, hit),
                );
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
                if k + 1 < groups.len() {
                    at = s.assign(ScalarKind::I32, Op::Binary(ir::BinaryOp::ISub, at, one));
                }
            }
            Ok(())
        });
        self.scopes.pop();
        self.emit(Stmt::Block { label, body: stmts });
        Ok(())
    }
}
