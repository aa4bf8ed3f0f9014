//! The GLSL preprocessor (GLSL 4.60 §3.3): directives, macros, `#if` expressions; produces
//! pp-tokens with spans for the parser. This file holds the public types and the directives;
//! in `preprocess/`, `lex.rs` splits lines and tokens, `expand.rs` expands macros, `expr.rs`
//! evaluates `#if` expressions.

use super::diag::Span;

/// Kind of a preprocessing token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PpKind {
    /// Identifier or keyword (the parser tells them apart by version).
    Ident,
    /// A pp-number: integer or floating literal with its suffix, unparsed.
    Number,
    /// Operator or punctuation, longest match (`<<=`, `++`, `.`, ...).
    Punct,
}

/// A token after preprocessing, with the span of its first character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PpToken {
    pub kind: PpKind,
    pub text: String,
    pub span: Span,
}

/// `#extension` behaviour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExtBehavior {
    Require,
    Enable,
    Warn,
    Disable,
}

/// `#version` profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    Core,
    Compatibility,
    Es,
}

/// The preprocessed translation unit.
#[derive(Clone, Debug, PartialEq)]
pub struct PpOutput {
    pub tokens: Vec<PpToken>,
    /// `#version` number; 110 when absent (GLSL 4.60 §3.3).
    pub version: u32,
    /// `Core` when no profile word is given (GLSL 4.60 §3.3), also before 1.50 where
    /// profiles did not exist yet; `Es` for `100` and `N es`.
    pub profile: Profile,
    /// `#extension` directives in source order (`all` is kept as the name "all"). Unsupported
    /// extensions appear too when their behaviour is `enable`, `warn` or `disable` (with a
    /// warning for the first two); a `require` of one is an error instead.
    pub extensions: Vec<(String, ExtBehavior, Span)>,
    /// Warnings (errors make `preprocess` return `Err`).
    pub warnings: Vec<super::Diagnostic>,
}

mod expand;
mod expr;
mod lex;
#[cfg(test)]
mod tests;

use super::diag::{Diagnostic, Severity};
use expand::{BodyTok, Macro, Macros, Tok, DYNAMIC_MACROS, TOO_DEEP};
use lex::{LogicalLine, TokKind};

/// The extensions this implementation supports: `#extension` accepts them, and each one is
/// a predefined macro of value 1 (GLSL 4.60 §3.3). GL_EXTENSIONS lists fewer; why, per
/// entry: `crate::extensions`.
pub const SUPPORTED_EXTENSIONS: &[&str] = crate::extensions::GLSL;

/// Errors reported before preprocessing stops.
const MAX_ERRORS: usize = 100;

/// `#version` numbers of desktop GLSL (GLSL 4.60 §3.3 and the earlier specs).
const DESKTOP_VERSIONS: [u32; 13] = [
    110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460,
];
/// `#version N es` numbers of GLSL ES (`100` takes no profile word).
const ES_VERSIONS: [u32; 3] = [300, 310, 320];

/// Preprocesses one shader (the concatenated source strings).
///
/// Returns the pp-tokens with the `#version`, profile, `#extension` list and warnings; or,
/// when any error was found, every diagnostic (errors and warnings, in source order).
/// Never panics: bad input of any kind, macro bombs included, ends in diagnostics.
pub fn preprocess(source: &str) -> Result<PpOutput, Vec<super::Diagnostic>> {
    let mut pp = Preprocessor::new(source);
    pp.run();
    if pp.diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(pp.diags);
    }
    Ok(PpOutput {
        tokens: pp.tokens,
        version: pp.version,
        profile: pp.profile,
        extensions: pp.extensions,
        warnings: pp.diags,
    })
}

/// One open `#if` group.
struct Cond {
    /// Text of the current branch is processed.
    active: bool,
    /// A branch of this `#if` was (or, in a skipped parent, counts as) taken already.
    taken: bool,
    else_seen: bool,
    parent_active: bool,
    /// The `#if`, `#ifdef` or `#ifndef`, for "unterminated".
    span: Span,
}

struct Preprocessor {
    lexer: lex::Lexer,
    macros: Macros,
    conds: Vec<Cond>,
    /// Reported line = physical line + `line_offset` (set by `#line`).
    line_offset: i64,
    /// Source-string number (set by `#line`).
    source: u32,
    version: u32,
    profile: Profile,
    /// Something other than comments and white space came already (`#version` must be first).
    seen_anything: bool,
    /// Active text not yet macro-expanded: expansion waits for the next directive that can
    /// change macros, so a macro call may span lines.
    pending: Vec<Tok>,
    tokens: Vec<PpToken>,
    extensions: Vec<(String, ExtBehavior, Span)>,
    diags: Vec<Diagnostic>,
    /// An error after which nothing sensible can follow (a macro bomb): stop.
    fatal: bool,
    error_count: usize,
}

impl Preprocessor {
    fn new(source: &str) -> Self {
        let mut pp = Preprocessor {
            lexer: lex::Lexer::new(source),
            macros: Macros::default(),
            conds: Vec::new(),
            line_offset: 0,
            source: 0,
            version: 110,
            profile: Profile::Core,
            seen_anything: false,
            pending: Vec::new(),
            tokens: Vec::new(),
            extensions: Vec::new(),
            diags: Vec::new(),
            fatal: false,
            error_count: 0,
        };
        for ext in SUPPORTED_EXTENSIONS {
            pp.macros.define_predefined(ext, "1");
        }
        pp.set_version(110, Profile::Core);
        pp
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.report(Diagnostic::error(span, msg));
    }

    /// Records a diagnostic; stops preprocessing after a macro bomb or too many errors.
    fn report(&mut self, d: Diagnostic) {
        if self.fatal {
            return;
        }
        if d.severity == Severity::Error {
            self.error_count += 1;
            if self.error_count > MAX_ERRORS {
                // Garbage input would otherwise give one diagnostic per character.
                self.diags.push(Diagnostic::error(
                    d.span,
                    "too many errors, preprocessing stopped",
                ));
                self.fatal = true;
                return;
            }
            self.fatal = d.message.starts_with(TOO_DEEP);
        }
        self.diags.push(d);
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.report(Diagnostic::warning(span, msg));
    }

    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// Sets the version and the profile macros it implies (GLSL 4.60 §3.3; GLSL ES 3.20
    /// §3.4 for `GL_ES`). `GL_core_profile` is defined for core shaders of 1.50 and later,
    /// where profiles exist; `GL_compatibility_profile` for compatibility ones.
    fn set_version(&mut self, version: u32, profile: Profile) {
        self.version = version;
        self.profile = profile;
        self.macros.version = version;
        for name in [
            "GL_ES",
            "GL_FRAGMENT_PRECISION_HIGH",
            "GL_core_profile",
            "GL_compatibility_profile",
        ] {
            self.macros.undef(name);
        }
        match profile {
            Profile::Es => {
                self.macros.define_predefined("GL_ES", "1");
                self.macros
                    .define_predefined("GL_FRAGMENT_PRECISION_HIGH", "1");
            }
            Profile::Core if version >= 150 => {
                self.macros.define_predefined("GL_core_profile", "1");
            }
            Profile::Compatibility => {
                self.macros
                    .define_predefined("GL_compatibility_profile", "1");
            }
            Profile::Core => {}
        }
    }

    /// The reported span of a physical position.
    fn span_at(&self, line: u32, col: u32) -> Span {
        let l = (i64::from(line) + self.line_offset).clamp(0, i64::from(u32::MAX));
        Span {
            source: self.source,
            line: l as u32,
            column: col,
        }
    }

    fn run(&mut self) {
        while let Some(line) = self.lexer.next_line() {
            self.process_line(line);
            if self.fatal {
                return;
            }
        }
        self.flush();
        if self.fatal {
            return;
        }
        let open: Vec<Span> = self.conds.iter().map(|c| c.span).collect();
        for span in open {
            // GLSL 4.60 §3.3 follows C++: each #if needs its #endif in the same shader.
            self.error(span, "unterminated #if");
        }
    }

    fn process_line(&mut self, line: LogicalLine) {
        if let Some((l, c)) = line.unterminated_comment {
            let span = self.span_at(l, c);
            self.error(span, "unterminated comment");
        }
        let toks: Vec<Tok> = line
            .toks
            .into_iter()
            .map(|t| Tok {
                span: self.span_at(t.line, t.col),
                kind: t.kind,
                text: t.text,
                ws_before: t.ws_before,
                hide: None,
            })
            .collect();
        if toks.is_empty() {
            return;
        }
        if toks[0].is_punct("#") {
            self.directive(toks, line.last_line);
            self.seen_anything = true;
        } else {
            self.seen_anything = true;
            if self.active() {
                self.pending.extend(toks);
            }
        }
    }

    /// Macro-expands the pending text and appends it to the output.
    fn flush(&mut self) {
        if self.pending.is_empty() || self.fatal {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        self.macros.source = self.source;
        match self.macros.expand(pending) {
            Ok(toks) => {
                for t in toks {
                    self.emit(t);
                }
            }
            Err(d) => {
                self.report(d);
            }
        }
    }

    fn emit(&mut self, t: Tok) {
        let kind = match t.kind {
            TokKind::Ident => PpKind::Ident,
            TokKind::Number => PpKind::Number,
            TokKind::Punct if t.text == "#" || t.text == "##" => {
                // GLSL 4.60 §3.3: `#` may only begin a directive.
                self.error(
                    t.span,
                    format!("unexpected `{}' outside a directive", t.text),
                );
                return;
            }
            TokKind::Punct => PpKind::Punct,
            TokKind::Other => {
                // GLSL 4.60 §3.1: characters outside the set are errors outside comments.
                self.error(t.span, format!("invalid character `{}'", shown(&t.text)));
                return;
            }
        };
        self.tokens.push(PpToken {
            kind,
            text: t.text,
            span: t.span,
        });
    }

    fn directive(&mut self, toks: Vec<Tok>, last_line: u32) {
        let hash = toks[0].span;
        let Some(name_tok) = toks.get(1) else {
            // The null directive (GLSL 4.60 §3.3).
            return;
        };
        let name = if name_tok.is_ident() {
            name_tok.text.clone()
        } else {
            String::new()
        };
        let name_span = name_tok.span;
        let args = &toks[2..];
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                if !self.active() {
                    self.conds.push(Cond {
                        active: false,
                        taken: true,
                        else_seen: false,
                        parent_active: false,
                        span: hash,
                    });
                    return;
                }
                let value = match name.as_str() {
                    "if" => self.eval_condition(args, name_span, "#if"),
                    _ => self.ifdef_condition(args, name_span, &name),
                };
                let v = value.unwrap_or(false);
                let v = if name == "ifndef" && value.is_some() {
                    !v
                } else {
                    v
                };
                self.conds.push(Cond {
                    active: v,
                    taken: v,
                    else_seen: false,
                    parent_active: true,
                    span: hash,
                });
            }
            "elif" => {
                let Some(c) = self.conds.last() else {
                    self.error(hash, "#elif without #if");
                    return;
                };
                if c.else_seen {
                    self.error(hash, "#elif after #else");
                    return;
                }
                // C++ [cpp.cond]: #elif is not evaluated once a branch was taken.
                let evaluate = c.parent_active && !c.taken;
                let v = evaluate
                    && self
                        .eval_condition(args, name_span, "#elif")
                        .unwrap_or(false);
                if let Some(c) = self.conds.last_mut() {
                    c.active = v;
                    c.taken |= v;
                }
            }
            "else" => {
                let Some(c) = self.conds.last_mut() else {
                    self.error(hash, "#else without #if");
                    return;
                };
                if c.else_seen {
                    self.error(hash, "#else after #else");
                    return;
                }
                c.else_seen = true;
                c.active = c.parent_active && !c.taken;
                c.taken = true;
                if c.parent_active {
                    self.no_extra_tokens(args, "#else");
                }
            }
            "endif" => {
                let Some(c) = self.conds.pop() else {
                    self.error(hash, "#endif without #if");
                    return;
                };
                if c.parent_active {
                    self.no_extra_tokens(args, "#endif");
                }
            }
            _ if !self.active() => {
                // Skipped groups: only the nesting of conditionals matters (C++ [cpp.cond]).
            }
            "define" => {
                self.flush();
                self.define(args, name_span);
            }
            "undef" => {
                self.flush();
                self.undef(args, name_span);
            }
            "error" => {
                self.flush();
                // GLSL 4.60 §3.3: #error puts its message in the info log and fails.
                let msg = join_text(args);
                let msg = if msg.is_empty() {
                    "#error".to_string()
                } else {
                    msg
                };
                self.error(hash, msg);
            }
            "pragma" => {
                // GLSL 4.60 §3.3: unknown pragmas are ignored; `optimize`, `debug` and
                // `STDGL` ones change nothing for us.
            }
            "extension" => {
                self.flush();
                self.extension(args, hash, name_span);
            }
            "version" => {
                self.flush();
                self.version_directive(args, hash, name_span);
            }
            "line" => {
                self.flush();
                self.line(args, name_span, last_line);
            }
            _ => {
                let shown = if name.is_empty() {
                    shown(&name_tok.text)
                } else {
                    name
                };
                self.error(name_span, format!("unknown directive `#{shown}'"));
            }
        }
    }

    fn no_extra_tokens(&mut self, args: &[Tok], directive: &str) {
        if let Some(t) = args.first() {
            self.error(
                t.span,
                format!("unexpected `{}' after {directive}", shown(&t.text)),
            );
        }
    }

    /// `#ifdef NAME` / `#ifndef NAME`: whether NAME is defined, `None` on a syntax error.
    fn ifdef_condition(&mut self, args: &[Tok], name_span: Span, directive: &str) -> Option<bool> {
        let Some(t) = args.first().filter(|t| t.is_ident()) else {
            self.error(name_span, format!("#{directive} needs a macro name"));
            return None;
        };
        let defined = self.macros.is_defined(&t.text);
        self.no_extra_tokens(&args[1..], &format!("#{directive}"));
        Some(defined)
    }

    /// `#if` / `#elif`: macro expansion with `defined` as an operator, then evaluation
    /// (C++ [cpp.cond]). `None` when an error was reported.
    fn eval_condition(&mut self, args: &[Tok], name_span: Span, directive: &str) -> Option<bool> {
        if args.is_empty() {
            self.error(name_span, format!("{directive} with no expression"));
            return None;
        }
        self.macros.source = self.source;
        let expanded = match self.macros.expand_if(args.to_vec()) {
            Ok(t) => t,
            Err(d) => {
                self.report(d);
                return None;
            }
        };
        let end = args.last().map_or(name_span, |t| t.span);
        let mut p = expr::ExprParser::new(&expanded, end);
        match p.expression() {
            Ok(v) if p.at_end() => Some(v != 0),
            Ok(_) => {
                let span = p.here();
                self.error(span, format!("unexpected tokens at the end of {directive}"));
                None
            }
            Err(d) => {
                self.report(d);
                None
            }
        }
    }

    /// Checks a macro name for `#define` / `#undef` (GLSL 4.60 §3.3); false when refused.
    fn check_macro_name(&mut self, t: &Tok, what: &str) -> bool {
        if t.text.starts_with("GL_") {
            self.error(
                t.span,
                format!(
                    "names beginning with `GL_' are reserved: cannot {what} `{}'",
                    t.text
                ),
            );
            return false;
        }
        if DYNAMIC_MACROS.contains(&t.text.as_str()) || t.text == "defined" {
            self.error(
                t.span,
                format!("cannot {what} predefined macro `{}'", t.text),
            );
            return false;
        }
        if t.text.contains("__") {
            // Reserved, but "does not itself result in an error" (GLSL 4.60 §3.3).
            self.warning(
                t.span,
                format!("names containing `__' are reserved: `{}'", t.text),
            );
        }
        true
    }

    fn define(&mut self, args: &[Tok], name_span: Span) {
        let Some(name) = args.first().filter(|t| t.is_ident()) else {
            self.error(name_span, "#define needs a macro name");
            return;
        };
        if !self.check_macro_name(name, "define") {
            return;
        }
        let mut rest = &args[1..];
        // `#define F(x)` is function-like only when `(` touches the name (C++ [cpp.replace]).
        let params = match rest.first() {
            Some(t) if t.is_punct("(") && !t.ws_before => {
                let mut params: Vec<String> = Vec::new();
                let mut k = 1;
                let ok = loop {
                    match rest.get(k) {
                        Some(t) if t.is_punct(")") && params.is_empty() => break true,
                        Some(t) if t.is_ident() && !params.contains(&t.text) => {
                            params.push(t.text.clone());
                            match rest.get(k + 1) {
                                Some(n) if n.is_punct(",") => k += 2,
                                Some(n) if n.is_punct(")") => {
                                    k += 1;
                                    break true;
                                }
                                _ => break false,
                            }
                        }
                        _ => break false,
                    }
                };
                if !ok {
                    let span = rest.get(k).map_or(name.span, |t| t.span);
                    self.error(
                        span,
                        format!("invalid parameter list of macro `{}'", name.text),
                    );
                    return;
                }
                rest = &rest[k + 1..];
                Some(params)
            }
            _ => None,
        };
        let is_paste = |t: &Tok| t.is_punct("##");
        if rest.first().is_some_and(is_paste) || rest.last().is_some_and(is_paste) {
            // C++ [cpp.concat]/1.
            self.error(
                name.span,
                "`##' cannot appear at either end of a macro expansion",
            );
            return;
        }
        let body = rest
            .iter()
            .map(|t| BodyTok {
                kind: t.kind,
                text: t.text.clone(),
                ws_before: t.ws_before,
                param: match (&params, t.kind) {
                    (Some(p), TokKind::Ident) => p.iter().position(|p| *p == t.text),
                    _ => None,
                },
            })
            .collect();
        let m = Macro {
            params,
            body,
            predefined: false,
        };
        if let Some(old) = self.macros.get(&name.text) {
            if !old.same_as(&m) {
                self.error(name.span, format!("macro `{}' redefined", name.text));
            }
            return;
        }
        self.macros.define(&name.text, m);
    }

    fn undef(&mut self, args: &[Tok], name_span: Span) {
        let Some(name) = args.first().filter(|t| t.is_ident()) else {
            self.error(name_span, "#undef needs a macro name");
            return;
        };
        if !self.check_macro_name(name, "undefine") {
            return;
        }
        if self.macros.get(&name.text).is_some_and(|m| m.predefined) {
            self.error(
                name.span,
                format!("cannot undefine predefined macro `{}'", name.text),
            );
            return;
        }
        self.no_extra_tokens(&args[1..], "#undef");
        self.macros.undef(&name.text);
    }

    /// `#extension name : behavior` (GLSL 4.60 §3.3). Not macro-expanded: extension names
    /// are macros themselves.
    fn extension(&mut self, args: &[Tok], hash: Span, name_span: Span) {
        let [name, colon, behavior] = args else {
            self.error(
                name_span,
                "#extension needs the form `#extension name : behavior'",
            );
            return;
        };
        if !name.is_ident() || !colon.is_punct(":") || !behavior.is_ident() {
            self.error(
                name_span,
                "#extension needs the form `#extension name : behavior'",
            );
            return;
        }
        let b = match behavior.text.as_str() {
            "require" => ExtBehavior::Require,
            "enable" => ExtBehavior::Enable,
            "warn" => ExtBehavior::Warn,
            "disable" => ExtBehavior::Disable,
            other => {
                self.error(
                    behavior.span,
                    format!("unknown extension behavior `{other}'"),
                );
                return;
            }
        };
        if name.text == "all" {
            if matches!(b, ExtBehavior::Require | ExtBehavior::Enable) {
                self.error(
                    behavior.span,
                    format!("extension `all' cannot have `{}' behavior", behavior.text),
                );
                return;
            }
        } else if !SUPPORTED_EXTENSIONS.contains(&name.text.as_str()) {
            let msg = format!("extension `{}' unsupported", name.text);
            match b {
                ExtBehavior::Require => {
                    self.error(name.span, msg);
                    return;
                }
                ExtBehavior::Enable | ExtBehavior::Warn => self.warning(name.span, msg),
                ExtBehavior::Disable => {}
            }
        }
        self.extensions.push((name.text.clone(), b, hash));
    }

    /// `#version N [profile]` (GLSL 4.60 §3.3). Not macro-expanded.
    fn version_directive(&mut self, args: &[Tok], hash: Span, name_span: Span) {
        if self.seen_anything {
            self.error(
                hash,
                "#version must come before anything else but comments and white space",
            );
            return;
        }
        let Some(num) = args.first().filter(|t| t.kind == TokKind::Number) else {
            self.error(name_span, "#version needs a version number");
            return;
        };
        let Some(version) = num
            .text
            .parse::<u32>()
            .ok()
            .filter(|_| num.text.bytes().all(|b| b.is_ascii_digit()))
        else {
            self.error(num.span, format!("invalid version number `{}'", num.text));
            return;
        };
        let profile_tok = args.get(1);
        if let Some(t) = args.get(2) {
            self.error(
                t.span,
                format!("unexpected `{}' after #version", shown(&t.text)),
            );
            return;
        }
        let word = profile_tok.map(|t| t.text.as_str());
        let profile = match word {
            None if version == 100 => Some(Profile::Es),
            None if DESKTOP_VERSIONS.contains(&version) => Some(Profile::Core),
            Some("es") if ES_VERSIONS.contains(&version) => Some(Profile::Es),
            Some("core") if DESKTOP_VERSIONS.contains(&version) && version >= 150 => {
                Some(Profile::Core)
            }
            Some("compatibility") if DESKTOP_VERSIONS.contains(&version) && version >= 150 => {
                Some(Profile::Compatibility)
            }
            Some("core" | "compatibility") if DESKTOP_VERSIONS.contains(&version) => {
                let span = profile_tok.map_or(num.span, |t| t.span);
                self.error(
                    span,
                    format!("profiles need version 150 or later, not {version}"),
                );
                return;
            }
            Some(w) if !matches!(w, "core" | "compatibility" | "es") => {
                let span = profile_tok.map_or(num.span, |t| t.span);
                self.error(span, format!("invalid profile `{}'", shown(w)));
                return;
            }
            _ => None,
        };
        let Some(profile) = profile else {
            let shown = match word {
                Some(w) => format!("{version} {w}"),
                None => version.to_string(),
            };
            self.error(num.span, format!("version {shown} is not supported"));
            return;
        };
        self.set_version(version, profile);
    }

    /// `#line line [source]` (GLSL 4.60 §3.3): both are integer constant expressions after
    /// macro expansion; `line` numbers the NEXT line.
    fn line(&mut self, args: &[Tok], name_span: Span, last_line: u32) {
        if args.is_empty() {
            self.error(name_span, "#line needs a line number");
            return;
        }
        self.macros.source = self.source;
        let expanded = match self.macros.expand(args.to_vec()) {
            Ok(t) => t,
            Err(d) => {
                self.report(d);
                return;
            }
        };
        let end = args.last().map_or(name_span, |t| t.span);
        let mut p = expr::ExprParser::new(&expanded, end);
        let line = match p.expression() {
            Ok(v) => v,
            Err(d) => {
                self.report(d);
                return;
            }
        };
        let source = if p.at_end() {
            None
        } else {
            match p.expression() {
                Ok(v) => Some(v),
                Err(d) => {
                    self.report(d);
                    return;
                }
            }
        };
        if !p.at_end() {
            let span = p.here();
            self.error(span, "unexpected tokens at the end of #line");
            return;
        }
        let Ok(line) = u32::try_from(line) else {
            self.error(name_span, format!("invalid line number {line} in #line"));
            return;
        };
        let source = match source.map(u32::try_from) {
            Some(Ok(s)) => Some(s),
            Some(Err(_)) => {
                self.error(name_span, "invalid source-string number in #line");
                return;
            }
            None => None,
        };
        self.line_offset = i64::from(line) - (i64::from(last_line) + 1);
        if let Some(s) = source {
            self.source = s;
        }
    }
}

/// Token text for a message: control characters (NUL, ...) escaped, the rest as written.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The text of a directive's tokens, one space where white space was (for `#error`).
fn join_text(toks: &[Tok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.ws_before {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}
