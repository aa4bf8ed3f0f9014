//! The recursive-descent parser (GLSL 4.60 §9 grammar): tokens → [`ast`] with spans. It
//! knows struct names to tell declarations from expressions; everything about types and
//! meaning is left to lowering.

use std::collections::HashSet;

use super::ast::*;
use super::diag::{Diagnostic, Span};
use super::lex::{Tok, Token};

use super::limits::{MAX_EXPRESSION_NESTING, MAX_OPERATOR_CHAIN, MAX_STATEMENT_NESTING};

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    structs: HashSet<String>,
    /// Struct names declared in the blocks open now, to forget at their `}`.
    scoped_structs: Vec<String>,
    /// Expression nesting along the current path (`limits::MAX_EXPRESSION_NESTING`).
    expr_depth: u32,
    /// Statement nesting along the current path (`limits::MAX_STATEMENT_NESTING`).
    stmt_depth: u32,
    /// Operator-chain links open along the current path (`limits::MAX_OPERATOR_CHAIN`).
    links: u32,
    /// Whether one declaration may have several `layout(...)` qualifiers (GLSL 4.20 or
    /// GL_ARB_shading_language_420pack; `with_multiple_layouts`).
    multiple_layouts: bool,
}

type PResult<T> = Result<T, Diagnostic>;

/// Whether a keyword names a type.
pub fn is_type_keyword(w: &str) -> bool {
    crate::ir::ImageType::from_name(w).is_some()
        || matches!(
            w,
            "void"
                | "float"
                | "int"
                | "uint"
                | "bool"
                | "double"
                | "uint64_t"
                | "int64_t"
                | "vec2"
                | "vec3"
                | "vec4"
                | "ivec2"
                | "ivec3"
                | "ivec4"
                | "uvec2"
                | "uvec3"
                | "uvec4"
                | "bvec2"
                | "bvec3"
                | "bvec4"
                | "dvec2"
                | "dvec3"
                | "dvec4"
                | "u64vec2"
                | "u64vec3"
                | "u64vec4"
                | "i64vec2"
                | "i64vec3"
                | "i64vec4"
                | "mat2"
                | "mat3"
                | "mat4"
                | "mat2x2"
                | "mat2x3"
                | "mat2x4"
                | "mat3x2"
                | "mat3x3"
                | "mat3x4"
                | "mat4x2"
                | "mat4x3"
                | "mat4x4"
                | "dmat2"
                | "dmat3"
                | "dmat4"
                | "dmat2x2"
                | "dmat2x3"
                | "dmat2x4"
                | "dmat3x2"
                | "dmat3x3"
                | "dmat3x4"
                | "dmat4x2"
                | "dmat4x3"
                | "dmat4x4"
                | "atomic_uint"
        )
        || w.contains("sampler")
}

fn is_qualifier_keyword(w: &str) -> bool {
    matches!(
        w,
        "const"
            | "in"
            | "out"
            | "inout"
            | "uniform"
            | "buffer"
            | "shared"
            | "attribute"
            | "varying"
            | "layout"
            | "flat"
            | "smooth"
            | "noperspective"
            | "invariant"
            | "centroid"
            | "precise"
            | "lowp"
            | "mediump"
            | "highp"
            | "coherent"
            | "volatile"
            | "restrict"
            | "readonly"
            | "writeonly"
            | "patch"
            | "sample"
            | "subroutine"
    )
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token]) -> Self {
        Parser {
            toks,
            pos: 0,
            // The one built-in struct type (GLSL 4.60 §7.4, `glsl/depth_range.rs`).
            structs: HashSet::from(["gl_DepthRangeParameters".to_string()]),
            scoped_structs: Vec::new(),
            expr_depth: 0,
            stmt_depth: 0,
            links: 0,
            multiple_layouts: true,
        }
    }

    /// Whether a declaration may have more than one `layout(...)` qualifier (GLSL 4.20
    /// §4.4, GL_ARB_shading_language_420pack): true unless told otherwise.
    pub fn with_multiple_layouts(mut self, allowed: bool) -> Self {
        self.multiple_layouts = allowed;
        self
    }

    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }
    fn peek_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len().saturating_sub(1));
        self.toks.get(i).map(|t| &t.tok).unwrap_or(&Tok::Eof)
    }
    fn span(&self) -> Span {
        let i = self.pos.min(self.toks.len().saturating_sub(1));
        self.toks.get(i).map(|t| t.span).unwrap_or_default()
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(s) if s == p)
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Keyword(s) if s == k)
    }
    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn eat_kw(&mut self, k: &str) -> bool {
        if self.is_kw(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) | Tok::Keyword(s) | Tok::Punct(s) => format!("`{s}'"),
            Tok::Int(v) => format!("`{v}'"),
            Tok::Uint(v) => format!("`{v}u'"),
            Tok::Uint64(v) => format!("`{v}ul'"),
            Tok::Double(v) => format!("`{v}lf'"),
            Tok::Float(v) => format!("`{v}'"),
            Tok::Bool(b) => format!("`{b}'"),
            Tok::Eof => "end of file".to_string(),
        }
    }
    fn err<T>(&self, what: &str) -> PResult<T> {
        Err(Diagnostic::error(
            self.span(),
            format!(
                "syntax error, unexpected {}, expecting {what}",
                Self::describe(self.peek())
            ),
        ))
    }
    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.err(&format!("`{p}'"))
        }
    }
    fn expect_ident(&mut self) -> PResult<(String, Span)> {
        let sp = self.span();
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.pos += 1;
                Ok((s, sp))
            }
            _ => self.err("identifier"),
        }
    }
    /// One more level of expression nesting; `leave_expr` undoes it.
    fn enter_expr(&mut self) -> PResult<()> {
        self.expr_depth += 1;
        if self.expr_depth > MAX_EXPRESSION_NESTING {
            return Err(Diagnostic::error(
                self.span(),
                format!(
                    "expression nested too deeply: more than {MAX_EXPRESSION_NESTING} levels (softgl's expression nesting limit)"
                ),
            ));
        }
        Ok(())
    }
    fn leave_expr(&mut self) {
        self.expr_depth = self.expr_depth.saturating_sub(1);
    }
    /// One more level of statement nesting; `leave_stmt` undoes it.
    fn enter_stmt(&mut self) -> PResult<()> {
        self.stmt_depth += 1;
        if self.stmt_depth > MAX_STATEMENT_NESTING {
            return Err(Diagnostic::error(
                self.span(),
                format!(
                    "statement nested too deeply: more than {MAX_STATEMENT_NESTING} levels (softgl's statement nesting limit)"
                ),
            ));
        }
        Ok(())
    }
    fn leave_stmt(&mut self) {
        self.stmt_depth = self.stmt_depth.saturating_sub(1);
    }
    /// One more link of an operator chain on the current path.
    fn link(&mut self) -> PResult<()> {
        self.links += 1;
        if self.links > MAX_OPERATOR_CHAIN {
            return Err(Diagnostic::error(
                self.span(),
                format!(
                    "expression is too long: an operator chain of more than {MAX_OPERATOR_CHAIN} links (softgl's operator chain limit)"
                ),
            ));
        }
        Ok(())
    }

    /// Whether the current token starts a type.
    fn at_type(&self) -> bool {
        match self.peek() {
            Tok::Keyword(k) => is_type_keyword(k) || k == "struct",
            Tok::Ident(s) => self.structs.contains(s),
            _ => false,
        }
    }

    /// Parses the whole translation unit. On a syntax error the first error is returned.
    pub fn parse_unit(&mut self) -> PResult<Vec<External>> {
        let mut out = Vec::new();
        while *self.peek() != Tok::Eof {
            if self.eat_punct(";") {
                continue;
            }
            out.push(self.parse_external()?);
        }
        Ok(out)
    }

    fn parse_external(&mut self) -> PResult<External> {
        let start = self.span();
        if self.is_kw("precision") {
            self.parse_precision()?;
            return Ok(External::Precision);
        }
        let quals = self.parse_qualifiers()?;
        // `layout(...) uniform;` / `invariant gl_Position;`
        if self.eat_punct(";") {
            return Ok(External::Qualifiers(quals, Vec::new()));
        }
        if let Tok::Ident(name) = self.peek().clone() {
            if !self.structs.contains(&name) {
                // Interface block: `uniform Name { ... }`, or qualifier-only redeclaration.
                if matches!(self.peek_at(1), Tok::Punct(p) if p == "{") {
                    return self.parse_block(quals, name, start).map(External::Block);
                }
                let redecl = matches!(self.peek_at(1), Tok::Punct(p) if p == ";" || p == ",");
                if (quals.storage.is_none() || quals.invariant) && redecl {
                    let mut names = vec![name];
                    self.pos += 1;
                    while self.eat_punct(",") {
                        names.push(self.expect_ident()?.0);
                    }
                    self.expect_punct(";")?;
                    return Ok(External::Qualifiers(quals, names));
                }
            }
        }
        let ty = match self.peek().clone() {
            // `subroutine uniform T u;`: T is a subroutine type, an identifier the parser
            // does not know (lowering checks it).
            Tok::Ident(n) if quals.subroutine.is_some() && !self.structs.contains(&n) => {
                let span = self.span();
                self.pos += 1;
                TypeSpec {
                    name: n,
                    struct_def: None,
                    dims: self.parse_dims()?,
                    span,
                }
            }
            _ => self.parse_type_spec()?,
        };
        if self.eat_punct(";") {
            return Ok(External::Var(VarDecl {
                quals,
                ty,
                decls: Vec::new(),
                span: start,
            }));
        }
        let (name, nsp) = self.expect_ident()?;
        if self.is_punct("(") {
            return self
                .parse_function(quals, ty, name, nsp)
                .map(External::Function);
        }
        let decls = self.parse_declarators(name, nsp)?;
        Ok(External::Var(VarDecl {
            quals,
            ty,
            decls,
            span: start,
        }))
    }

    fn parse_precision(&mut self) -> PResult<()> {
        self.bump();
        if !(self.eat_kw("lowp") || self.eat_kw("mediump") || self.eat_kw("highp")) {
            return self.err("precision qualifier");
        }
        if !self.at_type() {
            return self.err("type");
        }
        self.bump();
        self.expect_punct(";")
    }

    fn parse_block(&mut self, quals: Qualifiers, name: String, span: Span) -> PResult<BlockDecl> {
        self.pos += 1;
        self.expect_punct("{")?;
        let mut members = Vec::new();
        while !self.eat_punct("}") {
            if *self.peek() == Tok::Eof {
                return self.err("`}'");
            }
            members.push(self.parse_member()?);
        }
        let mut instance = None;
        if let Tok::Ident(inst) = self.peek().clone() {
            self.pos += 1;
            let dims = self.parse_dims()?;
            instance = Some((inst, dims));
        }
        self.expect_punct(";")?;
        Ok(BlockDecl {
            quals,
            name,
            members,
            instance,
            span,
        })
    }

    fn parse_member(&mut self) -> PResult<MemberDecl> {
        let quals = self.parse_qualifiers()?;
        let ty = self.parse_type_spec()?;
        let mut names = Vec::new();
        loop {
            let (n, sp) = self.expect_ident()?;
            let dims = self.parse_dims()?;
            names.push((n, dims, sp));
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(MemberDecl { quals, ty, names })
    }

    fn parse_qualifiers(&mut self) -> PResult<Qualifiers> {
        let mut q = Qualifiers {
            span: self.span(),
            ..Default::default()
        };
        let mut layouts_seen = false;
        while let Tok::Keyword(k) = self.peek().clone() {
            if !is_qualifier_keyword(&k) {
                break;
            }
            let sp = self.span();
            self.pos += 1;
            let storage = match k.as_str() {
                "const" => Some(Storage::Const),
                "in" => Some(Storage::In),
                "out" => Some(Storage::Out),
                "inout" => Some(Storage::InOut),
                "uniform" => Some(Storage::Uniform),
                "buffer" => Some(Storage::Buffer),
                "shared" => Some(Storage::Shared),
                "attribute" => Some(Storage::Attribute),
                "varying" => Some(Storage::Varying),
                _ => None,
            };
            if let Some(s) = storage {
                // `const in` on a parameter is a read-only input (GLSL 4.60 §6.1.1).
                if matches!(
                    (q.storage, s),
                    (Some(Storage::Const), Storage::In) | (Some(Storage::In), Storage::Const)
                ) {
                    q.storage = Some(Storage::Const);
                    continue;
                }
                if q.storage.is_some() {
                    return Err(Diagnostic::error(
                        sp,
                        "too many storage qualifiers".to_string(),
                    ));
                }
                q.storage = Some(s);
                continue;
            }
            match k.as_str() {
                "layout" => {
                    // GLSL 4.20 §4.4 (GL_ARB_shading_language_420pack): "More than one
                    // layout qualifier may appear in a single declaration. If the same
                    // layout-qualifier-name occurs in multiple layout qualifiers for the
                    // same declaration, the last one overrides the former ones."
                    let group_start = q.layout.len();
                    if layouts_seen && !self.multiple_layouts {
                        return Err(Diagnostic::error(
                            sp,
                            "more than one layout qualifier in a declaration needs GLSL 4.20 or GL_ARB_shading_language_420pack".to_string(),
                        ));
                    }
                    layouts_seen = true;
                    self.expect_punct("(")?;
                    loop {
                        let lsp = self.span();
                        let name = match self.bump() {
                            Tok::Ident(s) => s,
                            Tok::Keyword(s) if s == "shared" => s,
                            _ => {
                                self.pos -= 1;
                                return self.err("layout qualifier");
                            }
                        };
                        let value = if self.eat_punct("=") {
                            Some(self.parse_conditional()?)
                        } else {
                            None
                        };
                        q.layout.push(LayoutQual {
                            name,
                            value,
                            span: lsp,
                        });
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                    self.expect_punct(")")?;
                    let (earlier, group) = q.layout.split_at(group_start);
                    let kept: Vec<LayoutQual> = earlier
                        .iter()
                        .filter(|e| !group.iter().any(|g| g.name == e.name))
                        .cloned()
                        .collect();
                    q.layout.splice(..group_start, kept);
                }
                "flat" | "smooth" | "noperspective" => {
                    if q.interp.is_some() {
                        return Err(Diagnostic::error(
                            sp,
                            "too many interpolation qualifiers".to_string(),
                        ));
                    }
                    q.interp = Some(match k.as_str() {
                        "flat" => InterpQual::Flat,
                        "smooth" => InterpQual::Smooth,
                        _ => InterpQual::NoPerspective,
                    });
                }
                "invariant" => q.invariant = true,
                "centroid" | "sample" => q.centroid = true,
                "precise" => q.precise = true,
                "readonly" => q.readonly = true,
                "writeonly" => q.writeonly = true,
                "coherent" => q.coherent = true,
                "volatile" => q.volatile = true,
                "restrict" => q.restrict = true,
                "patch" => q.patch = true,
                "subroutine" => {
                    if q.subroutine.is_some() {
                        return Err(Diagnostic::error(
                            sp,
                            "too many subroutine qualifiers".to_string(),
                        ));
                    }
                    q.subroutine = Some((self.parse_subroutine_types()?, sp));
                }
                _ => {} // precision qualifiers
            }
        }
        Ok(q)
    }

    /// After `subroutine`: nothing (a subroutine type or uniform follows), or the
    /// parenthesized, non-empty list of subroutine type names of a function (GLSL 4.60
    /// §6.1.2, the grammar's `type_name_list`).
    fn parse_subroutine_types(&mut self) -> PResult<SubroutineQual> {
        if !self.eat_punct("(") {
            return Ok(SubroutineQual::Bare);
        }
        let mut names = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Ident(n) => {
                    names.push((n, self.span()));
                    self.pos += 1;
                }
                _ => return self.err("subroutine type name"),
            }
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok(SubroutineQual::Types(names))
    }

    /// `type` or `type[N]` or `struct S { ... }`.
    fn parse_type_spec(&mut self) -> PResult<TypeSpec> {
        let span = self.span();
        let (name, struct_def) = match self.peek().clone() {
            Tok::Keyword(k) if k == "struct" => {
                self.pos += 1;
                let sname = if let Tok::Ident(n) = self.peek().clone() {
                    self.pos += 1;
                    Some(n)
                } else {
                    None
                };
                self.expect_punct("{")?;
                let mut members = Vec::new();
                while !self.eat_punct("}") {
                    if *self.peek() == Tok::Eof {
                        return self.err("`}'");
                    }
                    self.enter_stmt()?;
                    let m = self.parse_member();
                    self.leave_stmt();
                    members.push(m?);
                }
                if let Some(n) = &sname {
                    if self.structs.insert(n.clone()) {
                        self.scoped_structs.push(n.clone());
                    }
                }
                let d = StructDecl {
                    name: sname.clone(),
                    members,
                    span,
                };
                (sname.unwrap_or_default(), Some(Box::new(d)))
            }
            Tok::Keyword(k) if is_type_keyword(&k) => {
                self.pos += 1;
                (k, None)
            }
            Tok::Ident(n) if self.structs.contains(&n) => {
                self.pos += 1;
                (n, None)
            }
            Tok::Ident(n) => {
                return Err(Diagnostic::error(
                    span,
                    format!("syntax error, unknown type `{n}'"),
                ))
            }
            _ => return self.err("type"),
        };
        let dims = self.parse_dims()?;
        Ok(TypeSpec {
            name,
            struct_def,
            dims,
            span,
        })
    }

    fn parse_dims(&mut self) -> PResult<Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while self.eat_punct("[") {
            if self.eat_punct("]") {
                dims.push(None);
            } else {
                let e = self.parse_conditional()?;
                self.expect_punct("]")?;
                dims.push(Some(e));
            }
        }
        Ok(dims)
    }

    fn parse_declarators(&mut self, first: String, first_span: Span) -> PResult<Vec<Declarator>> {
        let mut decls = Vec::new();
        let (mut name, mut sp) = (first, first_span);
        loop {
            let dims = self.parse_dims()?;
            let init = if self.eat_punct("=") {
                Some(self.parse_initializer()?)
            } else {
                None
            };
            decls.push(Declarator {
                name,
                dims,
                init,
                span: sp,
            });
            if !self.eat_punct(",") {
                break;
            }
            let (n, s) = self.expect_ident()?;
            name = n;
            sp = s;
        }
        self.expect_punct(";")?;
        Ok(decls)
    }

    fn parse_initializer(&mut self) -> PResult<Expr> {
        let span = self.span();
        if self.eat_punct("{") {
            self.enter_expr()?;
            let mut items = Vec::new();
            loop {
                if self.is_punct("}") {
                    break;
                }
                let item = self.parse_initializer();
                let Ok(item) = item else {
                    self.leave_expr();
                    return item;
                };
                items.push(item);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.leave_expr();
            self.expect_punct("}")?;
            return Ok(Expr {
                kind: ExprKind::InitList(items),
                span,
            });
        }
        self.parse_assignment()
    }

    fn parse_function(
        &mut self,
        quals: Qualifiers,
        ret: TypeSpec,
        name: String,
        span: Span,
    ) -> PResult<FunctionDecl> {
        self.expect_punct("(")?;
        let mut params = Vec::new();
        if self.is_kw("void") && matches!(self.peek_at(1), Tok::Punct(p) if p == ")") {
            self.pos += 1;
        }
        if !self.is_punct(")") {
            loop {
                let psp = self.span();
                let quals = self.parse_qualifiers()?;
                let mut ty = self.parse_type_spec()?;
                let mut pname = None;
                if let Tok::Ident(n) = self.peek().clone() {
                    self.pos += 1;
                    pname = Some(n);
                    let dims = self.parse_dims()?;
                    ty.dims.extend(dims);
                }
                params.push(Param {
                    quals,
                    ty,
                    name: pname,
                    span: psp,
                });
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        let body = if self.eat_punct(";") {
            None
        } else {
            if !self.is_punct("{") {
                return self.err("`{' or `;'");
            }
            self.pos += 1;
            Some(self.parse_block_body()?)
        };
        Ok(FunctionDecl {
            quals,
            ret,
            name,
            params,
            body,
            span,
        })
    }

    /// Statements up to the closing `}` (the `{` is already consumed).
    fn parse_block_body(&mut self) -> PResult<Vec<Stmt>> {
        let mut stmts = Vec::new();
        while !self.eat_punct("}") {
            if *self.peek() == Tok::Eof {
                return self.err("`}'");
            }
            stmts.push(self.parse_statement()?);
        }
        Ok(stmts)
    }

    /// Whether the statement at the cursor is a declaration.
    fn at_declaration(&self) -> bool {
        match self.peek() {
            Tok::Keyword(k) if is_qualifier_keyword(k) || k == "struct" => true,
            Tok::Keyword(k) if is_type_keyword(k) => self.type_followed_by_name(),
            Tok::Ident(s) if self.structs.contains(s) => self.type_followed_by_name(),
            _ => false,
        }
    }

    /// After a type name: `(` means constructor; `[...]` then `(` means array constructor.
    fn type_followed_by_name(&self) -> bool {
        let mut i = 1;
        loop {
            match self.peek_at(i) {
                Tok::Punct(p) if p == "[" => {
                    let mut depth = 0;
                    loop {
                        match self.peek_at(i) {
                            Tok::Punct(p) if p == "[" => depth += 1,
                            Tok::Punct(p) if p == "]" => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            Tok::Eof => return false,
                            _ => {}
                        }
                        i += 1;
                    }
                    i += 1;
                }
                Tok::Punct(p) if p == "(" => return false,
                Tok::Punct(p) if p == "." => return false,
                _ => return true,
            }
        }
    }

    pub fn parse_statement(&mut self) -> PResult<Stmt> {
        self.enter_stmt()?;
        let r = self.parse_statement_inner();
        self.leave_stmt();
        r
    }

    fn parse_statement_inner(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let mk = |kind| Ok(Stmt { kind, span });
        if self.eat_punct("{") {
            // Struct names declared inside are forgotten at the `}` (not a copy of the
            // set per block: that made many blocks × many structs quadratic).
            let mark = self.scoped_structs.len();
            let body = self.parse_block_body();
            for n in self.scoped_structs.drain(mark..) {
                self.structs.remove(&n);
            }
            return mk(StmtKind::Block(body?));
        }
        if self.eat_punct(";") {
            return mk(StmtKind::Empty);
        }
        if let Tok::Keyword(k) = self.peek().clone() {
            match k.as_str() {
                "if" => {
                    self.pos += 1;
                    self.expect_punct("(")?;
                    let c = self.parse_expression()?;
                    self.expect_punct(")")?;
                    let t = self.parse_statement()?;
                    let e = if self.eat_kw("else") {
                        Some(Box::new(self.parse_statement()?))
                    } else {
                        None
                    };
                    return mk(StmtKind::If(c, Box::new(t), e));
                }
                "for" => {
                    self.pos += 1;
                    self.expect_punct("(")?;
                    let init = if self.eat_punct(";") {
                        None
                    } else {
                        Some(Box::new(self.parse_simple_statement()?))
                    };
                    let cond = if self.is_punct(";") {
                        None
                    } else {
                        Some(self.parse_expression()?)
                    };
                    self.expect_punct(";")?;
                    let inc = if self.is_punct(")") {
                        None
                    } else {
                        Some(self.parse_expression()?)
                    };
                    self.expect_punct(")")?;
                    let body = Box::new(self.parse_statement()?);
                    return mk(StmtKind::For {
                        init,
                        cond,
                        inc,
                        body,
                    });
                }
                "while" => {
                    self.pos += 1;
                    self.expect_punct("(")?;
                    let c = self.parse_expression()?;
                    self.expect_punct(")")?;
                    let body = self.parse_statement()?;
                    return mk(StmtKind::While(c, Box::new(body)));
                }
                "do" => {
                    self.pos += 1;
                    let body = self.parse_statement()?;
                    if !self.eat_kw("while") {
                        return self.err("`while'");
                    }
                    self.expect_punct("(")?;
                    let c = self.parse_expression()?;
                    self.expect_punct(")")?;
                    self.expect_punct(";")?;
                    return mk(StmtKind::DoWhile(Box::new(body), c));
                }
                "switch" => {
                    self.pos += 1;
                    self.expect_punct("(")?;
                    let c = self.parse_expression()?;
                    self.expect_punct(")")?;
                    self.expect_punct("{")?;
                    let body = self.parse_block_body()?;
                    return mk(StmtKind::Switch(c, body));
                }
                "case" => {
                    self.pos += 1;
                    let e = self.parse_expression()?;
                    self.expect_punct(":")?;
                    return mk(StmtKind::Case(e));
                }
                "default" => {
                    self.pos += 1;
                    self.expect_punct(":")?;
                    return mk(StmtKind::Default);
                }
                "break" | "continue" | "discard" => {
                    self.pos += 1;
                    self.expect_punct(";")?;
                    return mk(match k.as_str() {
                        "break" => StmtKind::Break,
                        "continue" => StmtKind::Continue,
                        _ => StmtKind::Discard,
                    });
                }
                "return" => {
                    self.pos += 1;
                    if self.eat_punct(";") {
                        return mk(StmtKind::Return(None));
                    }
                    let e = self.parse_expression()?;
                    self.expect_punct(";")?;
                    return mk(StmtKind::Return(Some(e)));
                }
                "precision" => {
                    self.parse_precision()?;
                    return mk(StmtKind::Precision);
                }
                _ => {}
            }
        }
        self.parse_simple_statement()
    }

    /// A declaration or an expression statement, with its `;`.
    fn parse_simple_statement(&mut self) -> PResult<Stmt> {
        let span = self.span();
        // `name name` where the first is not a type: an unknown type (e.g. `uint` in 1.10).
        if let (Tok::Ident(t), Tok::Ident(_)) = (self.peek(), self.peek_at(1)) {
            if !self.structs.contains(t) {
                return Err(Diagnostic::error(
                    span,
                    format!("syntax error, unknown type `{t}'"),
                ));
            }
        }
        if self.at_declaration() {
            let quals = self.parse_qualifiers()?;
            let ty = self.parse_type_spec()?;
            if self.eat_punct(";") {
                return Ok(Stmt {
                    kind: StmtKind::Decl(VarDecl {
                        quals,
                        ty,
                        decls: Vec::new(),
                        span,
                    }),
                    span,
                });
            }
            let (name, nsp) = self.expect_ident()?;
            let decls = self.parse_declarators(name, nsp)?;
            return Ok(Stmt {
                kind: StmtKind::Decl(VarDecl {
                    quals,
                    ty,
                    decls,
                    span,
                }),
                span,
            });
        }
        let e = self.parse_expression()?;
        self.expect_punct(";")?;
        Ok(Stmt {
            kind: StmtKind::Expr(e),
            span,
        })
    }

    pub fn parse_expression(&mut self) -> PResult<Expr> {
        let mut e = self.parse_assignment()?;
        let saved = self.links;
        while self.is_punct(",") {
            let span = e.span;
            self.pos += 1;
            if let Err(d) = self.link() {
                self.links = saved;
                return Err(d);
            }
            let r = self.parse_assignment()?;
            e = Expr {
                kind: ExprKind::Comma(Box::new(e), Box::new(r)),
                span,
            };
        }
        self.links = saved;
        Ok(e)
    }

    /// Every nested expression (parentheses, arguments, indices, `?:` branches, right
    /// sides of assignments) comes through here: one level of expression nesting.
    fn parse_assignment(&mut self) -> PResult<Expr> {
        self.enter_expr()?;
        let r = self.parse_assignment_inner();
        self.leave_expr();
        r
    }

    fn parse_assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.parse_conditional()?;
        let op = match self.peek() {
            Tok::Punct(p) => match p.as_str() {
                "=" => Some(None),
                "+=" => Some(Some(BinOp::Add)),
                "-=" => Some(Some(BinOp::Sub)),
                "*=" => Some(Some(BinOp::Mul)),
                "/=" => Some(Some(BinOp::Div)),
                "%=" => Some(Some(BinOp::Rem)),
                "<<=" => Some(Some(BinOp::Shl)),
                ">>=" => Some(Some(BinOp::Shr)),
                "&=" => Some(Some(BinOp::BitAnd)),
                "|=" => Some(Some(BinOp::BitOr)),
                "^=" => Some(Some(BinOp::BitXor)),
                _ => None,
            },
            _ => None,
        };
        if let Some(op) = op {
            let span = lhs.span;
            self.pos += 1;
            let rhs = self.parse_assignment()?;
            return Ok(Expr {
                kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                span,
            });
        }
        Ok(lhs)
    }

    fn parse_conditional(&mut self) -> PResult<Expr> {
        let c = self.parse_binary(1)?;
        if self.is_punct("?") {
            let span = c.span;
            self.pos += 1;
            let a = self.parse_expression()?;
            self.expect_punct(":")?;
            let b = self.parse_assignment()?;
            return Ok(Expr {
                kind: ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
                span,
            });
        }
        Ok(c)
    }

    fn binop_at(&self) -> Option<(BinOp, u32)> {
        let Tok::Punct(p) = self.peek() else {
            return None;
        };
        Some(match p.as_str() {
            "||" => (BinOp::LogOr, 1),
            "^^" => (BinOp::LogXor, 2),
            "&&" => (BinOp::LogAnd, 3),
            "|" => (BinOp::BitOr, 4),
            "^" => (BinOp::BitXor, 5),
            "&" => (BinOp::BitAnd, 6),
            "==" => (BinOp::Eq, 7),
            "!=" => (BinOp::Ne, 7),
            "<" => (BinOp::Lt, 8),
            ">" => (BinOp::Gt, 8),
            "<=" => (BinOp::Le, 8),
            ">=" => (BinOp::Ge, 8),
            "<<" => (BinOp::Shl, 9),
            ">>" => (BinOp::Shr, 9),
            "+" => (BinOp::Add, 10),
            "-" => (BinOp::Sub, 10),
            "*" => (BinOp::Mul, 11),
            "/" => (BinOp::Div, 11),
            "%" => (BinOp::Rem, 11),
            _ => return None,
        })
    }

    fn parse_binary(&mut self, min_prec: u32) -> PResult<Expr> {
        let mut lhs = self.parse_unary()?;
        let saved = self.links;
        while let Some((op, prec)) = self.binop_at() {
            if prec < min_prec {
                break;
            }
            let span = lhs.span;
            self.pos += 1;
            if let Err(d) = self.link() {
                self.links = saved;
                return Err(d);
            }
            if let Err(d) = self.enter_expr() {
                self.links = saved;
                return Err(d);
            }
            let rhs = self.parse_binary(prec + 1);
            self.leave_expr();
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs?)),
                span,
            };
        }
        self.links = saved;
        Ok(lhs)
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let op = match self.peek() {
            Tok::Punct(p) => match p.as_str() {
                "-" => Some(Ok(UnOp::Neg)),
                "+" => Some(Ok(UnOp::Plus)),
                "~" => Some(Ok(UnOp::BitNot)),
                "!" => Some(Ok(UnOp::LogNot)),
                "++" => Some(Err(true)),
                "--" => Some(Err(false)),
                _ => None,
            },
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            self.enter_expr()?;
            let e = self.parse_unary();
            self.leave_expr();
            let e = Box::new(e?);
            let kind = match op {
                Ok(op) => ExprKind::Unary(op, e),
                Err(inc) => ExprKind::IncDec { pre: true, inc, e },
            };
            return Ok(Expr { kind, span });
        }
        self.parse_postfix()
    }

    fn parse_postfix(&mut self) -> PResult<Expr> {
        let mut e = self.parse_primary()?;
        let saved = self.links;
        loop {
            let span = e.span;
            if self.is_punct("[")
                || self.is_punct(".")
                || self.is_punct("++")
                || self.is_punct("--")
            {
                if let Err(d) = self.link() {
                    self.links = saved;
                    return Err(d);
                }
            }
            if self.eat_punct("[") {
                let i = self.parse_expression()?;
                self.expect_punct("]")?;
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(i)),
                    span,
                };
            } else if self.eat_punct(".") {
                let (name, _) = self.expect_ident()?;
                if name == "length" && self.is_punct("(") {
                    self.pos += 1;
                    self.expect_punct(")")?;
                    e = Expr {
                        kind: ExprKind::Length(Box::new(e)),
                        span,
                    };
                } else {
                    e = Expr {
                        kind: ExprKind::Field(Box::new(e), name),
                        span,
                    };
                }
            } else if let (true, ExprKind::Index(base, index)) = (self.is_punct("("), &e.kind) {
                // `u[i](...)`: a call through an element of an array of subroutine
                // uniforms (GLSL 4.60 §6.1.2); nothing else is callable after `]`.
                let ExprKind::Ident(name) = &base.kind else {
                    return self.err("`;'");
                };
                let callee = Callee::Indexed(name.clone(), index.clone());
                let args = self.parse_args()?;
                e = Expr {
                    kind: ExprKind::Call(callee, args),
                    span,
                };
            } else if self.is_punct("++") || self.is_punct("--") {
                let inc = self.is_punct("++");
                self.pos += 1;
                e = Expr {
                    kind: ExprKind::IncDec {
                        pre: false,
                        inc,
                        e: Box::new(e),
                    },
                    span,
                };
            } else {
                break;
            }
        }
        self.links = saved;
        Ok(e)
    }

    fn parse_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        if self.is_kw("void") && matches!(self.peek_at(1), Tok::Punct(p) if p == ")") {
            self.pos += 1;
        }
        if !self.is_punct(")") {
            loop {
                args.push(self.parse_assignment()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        Ok(args)
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let mk = |kind| Ok(Expr { kind, span });
        match self.peek().clone() {
            Tok::Int(v) => {
                self.pos += 1;
                mk(ExprKind::Int(v))
            }
            Tok::Uint(v) => {
                self.pos += 1;
                mk(ExprKind::Uint(v))
            }
            Tok::Uint64(v) => {
                self.pos += 1;
                mk(ExprKind::Uint64(v))
            }
            Tok::Float(v) => {
                self.pos += 1;
                mk(ExprKind::Float(v))
            }
            Tok::Double(v) => {
                self.pos += 1;
                mk(ExprKind::Double(v))
            }
            Tok::Bool(v) => {
                self.pos += 1;
                mk(ExprKind::Bool(v))
            }
            Tok::Punct(p) if p == "(" => {
                // One level, counted by `parse_assignment`.
                self.pos += 1;
                let e = self.parse_expression()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Ident(name) if !self.structs.contains(&name) => {
                self.pos += 1;
                if self.is_punct("(") {
                    let args = self.parse_args()?;
                    return mk(ExprKind::Call(Callee::Name(name), args));
                }
                mk(ExprKind::Ident(name))
            }
            _ if self.at_type() => {
                let ty = self.parse_type_spec()?;
                let args = self.parse_args()?;
                if ty.dims.is_empty() && ty.struct_def.is_none() {
                    return mk(ExprKind::Call(Callee::Name(ty.name), args));
                }
                mk(ExprKind::Call(Callee::Type(ty), args))
            }
            _ => self.err("expression"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::super::preprocess::{preprocess, Profile};
    use super::*;

    fn parse(src: &str) -> PResult<Vec<External>> {
        let pp = preprocess(src).expect("pp");
        let mut d = Vec::new();
        let toks = lex(&pp.tokens, pp.version, Profile::Core, true, &mut d);
        assert!(d.is_empty(), "{d:?}");
        Parser::new(&toks).parse_unit()
    }

    #[test]
    fn precedence() {
        let u = parse("#version 330\nint x = 1 + 2 * 3 << 1;").unwrap();
        let External::Var(v) = &u[0] else { panic!() };
        let init = v.decls[0].init.as_ref().unwrap();
        let ExprKind::Binary(BinOp::Shl, l, _) = &init.kind else {
            panic!("{init:?}")
        };
        assert!(matches!(l.kind, ExprKind::Binary(BinOp::Add, _, _)));
    }

    #[test]
    fn declarations_vs_expressions() {
        let src = "#version 330\nstruct S { float a; vec2 b[2]; };\n\
                   void main() { S s; vec4(1.0); float[2](1.0, 2.0); float a[2]; s.b[1].x = 3.0; }";
        let u = parse(src).unwrap();
        let External::Function(f) = &u[1] else {
            panic!()
        };
        let body = f.body.as_ref().unwrap();
        assert!(matches!(body[0].kind, StmtKind::Decl(_)));
        assert!(matches!(body[1].kind, StmtKind::Expr(_)));
        assert!(matches!(body[2].kind, StmtKind::Expr(_)));
        assert!(matches!(body[3].kind, StmtKind::Decl(_)));
        assert!(matches!(body[4].kind, StmtKind::Expr(_)));
    }

    #[test]
    fn blocks_and_layouts() {
        let src = "#version 330\nlayout(std140, binding = 2) uniform B { mat4 m; } b;\n\
                   layout(location = 1) in vec3 p;\nlayout(bindless_sampler) uniform;";
        let u = parse(src).unwrap();
        assert!(matches!(&u[0], External::Block(b) if b.name == "B" && b.instance.is_some()));
        assert!(matches!(&u[1], External::Var(v) if v.quals.layout[0].name == "location"));
        assert!(matches!(&u[2], External::Qualifiers(q, n) if n.is_empty() && q.layout.len() == 1));
    }

    #[test]
    fn syntax_error_is_reported() {
        let e = parse("#version 330\nvoid main() { x = ; }").unwrap_err();
        assert_eq!(e.span.line, 2);
        assert!(e.message.contains("unexpected `;'"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_refused() {
        // On a compiler thread, whose stack the nesting limits are sized for.
        crate::jit::run_on_compiler_thread(|| {
            let src = format!(
                "void main() {{ x = {}1{}; }}",
                "(".repeat(5000),
                ")".repeat(5000)
            );
            assert!(parse(&src).is_err());
        });
    }
}
