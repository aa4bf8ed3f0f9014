//! Macro definitions and macro expansion (C++ [cpp.replace], as GLSL 4.60 §3.3 adopts it):
//! object-like and function-like macros, argument pre-expansion, `##` pasting, the
//! predefined `__LINE__`, `__FILE__`, `__VERSION__`, and the recursion guard done with
//! hide sets (Prosser's algorithm). Expansion work and depth are capped, so a macro bomb
//! ends in the error "macro expansion too deep" instead of eating memory. Directive parsing
//! is left to `preprocess.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use super::lex::{self, TokKind};
use crate::glsl::diag::{Diagnostic, Span};

/// Tokens macro expansion may produce or re-collect in one `preprocess` call before it gives
/// up: 2M tokens (~150 MB at worst) is far above real shaders (a 5,000-line shader with
/// heavy macros makes ~10^5) and far below what a macro bomb asks for.
pub(crate) const MAX_WORK: usize = 1 << 21;
/// Nesting of macro calls inside arguments of macro calls.
pub(crate) use crate::glsl::limits::MAX_MACRO_NESTING as MAX_DEPTH;
/// How every expansion error that ends preprocessing starts.
pub(crate) const TOO_DEEP: &str = "macro expansion too deep";

/// Macros a token came from: while a macro's name is in a token's set, that token does not
/// expand as the macro (C++ [cpp.rescan]).
pub(crate) type HideSet = Option<Rc<[u32]>>;

/// A token being preprocessed, with the span it reports (after `#line`).
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: TokKind,
    pub text: String,
    pub span: Span,
    pub ws_before: bool,
    pub hide: HideSet,
}

impl Tok {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokKind::Punct && self.text == p
    }
    pub fn is_ident(&self) -> bool {
        self.kind == TokKind::Ident
    }
}

/// One token of a replacement list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BodyTok {
    pub kind: TokKind,
    pub text: String,
    pub ws_before: bool,
    /// Index of the parameter this token names, for function-like macros.
    pub param: Option<usize>,
}

/// A `#define`d macro.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    /// `None` for object-like macros.
    pub params: Option<Vec<String>>,
    pub body: Vec<BodyTok>,
    /// Set for the macros the implementation defines (`GL_ES`, extension macros, ...).
    pub predefined: bool,
}

impl Macro {
    /// C++ [cpp.replace]/2: redefinition is allowed only when parameters and replacement
    /// list are identical, whitespace separation included.
    pub fn same_as(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind
                        && a.text == b.text
                        && a.param == b.param
                        && (i == 0 || a.ws_before == b.ws_before)
                })
    }
}

/// Names that expand to a value computed at the use: they cannot be defined or undefined.
pub(crate) const DYNAMIC_MACROS: [&str; 3] = ["__LINE__", "__FILE__", "__VERSION__"];

/// The macro table and the expansion engine.
#[derive(Default)]
pub(crate) struct Macros {
    /// `Rc` so an expansion holds its macro while the table stays mutable.
    defs: HashMap<String, Rc<Macro>>,
    ids: HashMap<String, u32>,
    /// Expansion work done so far, against [`MAX_WORK`].
    work: usize,
    /// Expanding an `#if` line: `defined` is an operator, not an identifier.
    in_if: bool,
    /// The `#version` number, for `__VERSION__`.
    pub version: u32,
    /// The source-string number, for `__FILE__`.
    pub source: u32,
}

impl Macros {
    pub fn get(&self, name: &str) -> Option<&Macro> {
        self.defs.get(name).map(|m| &**m)
    }

    pub fn is_defined(&self, name: &str) -> bool {
        self.defs.contains_key(name) || DYNAMIC_MACROS.contains(&name)
    }

    pub fn define(&mut self, name: &str, m: Macro) {
        self.defs.insert(name.to_string(), Rc::new(m));
    }

    pub fn undef(&mut self, name: &str) {
        self.defs.remove(name);
    }

    /// Defines `name` as `value`, as the implementation does for `GL_ES` and friends.
    pub fn define_predefined(&mut self, name: &str, value: &str) {
        let body = vec![BodyTok {
            kind: TokKind::Number,
            text: value.to_string(),
            ws_before: true,
            param: None,
        }];
        self.define(
            name,
            Macro {
                params: None,
                body,
                predefined: true,
            },
        );
    }

    fn id_of(&mut self, name: &str) -> u32 {
        if let Some(id) = self.ids.get(name) {
            return *id;
        }
        let next = self.ids.len() as u32;
        self.ids.insert(name.to_string(), next);
        next
    }

    fn tick(&mut self, span: Span) -> Result<(), Diagnostic> {
        self.work += 1;
        if self.work > MAX_WORK {
            return Err(Diagnostic::error(span, TOO_DEEP));
        }
        Ok(())
    }

    /// Fully macro-expands `input` (C++ [cpp.rescan]). The first error ends the expansion.
    pub fn expand(&mut self, input: Vec<Tok>) -> Result<Vec<Tok>, Diagnostic> {
        self.in_if = false;
        self.expand_at(input, 0)
    }

    /// Expands an `#if` / `#elif` line: `defined X` and `defined ( X )` become `1` or `0`
    /// without expanding X, also where a macro's expansion produced them (which C++
    /// [cpp.cond]/4 leaves undefined; GCC and Mesa do the same as here).
    pub fn expand_if(&mut self, input: Vec<Tok>) -> Result<Vec<Tok>, Diagnostic> {
        self.in_if = true;
        let r = self.expand_at(input, 0);
        self.in_if = false;
        r
    }

    /// Takes the operand of a `defined` just popped from `stack`; whether it is defined.
    fn take_defined(&mut self, stack: &mut Vec<Tok>, t: &Tok) -> Result<bool, Diagnostic> {
        let bad = || Diagnostic::error(t.span, "`defined' needs a macro name");
        let parens = stack.last().is_some_and(|n| n.is_punct("("));
        if parens {
            stack.pop();
        }
        let name = stack.pop().filter(|n| n.is_ident()).ok_or_else(bad)?;
        if parens && !stack.pop().is_some_and(|n| n.is_punct(")")) {
            return Err(bad());
        }
        Ok(self.is_defined(&name.text))
    }

    fn expand_at(&mut self, mut input: Vec<Tok>, depth: u32) -> Result<Vec<Tok>, Diagnostic> {
        if depth > MAX_DEPTH {
            let span = input.first().map(|t| t.span).unwrap_or_default();
            return Err(Diagnostic::error(
                span,
                format!(
                    "{TOO_DEEP}: macros nest more than {MAX_DEPTH} levels in arguments (softgl's macro nesting limit)"
                ),
            ));
        }
        // A stack of pending tokens, next one last: replacement lists are pushed back on it
        // so they are rescanned together with the rest of the input.
        input.reverse();
        let mut stack = input;
        let mut out = Vec::new();
        // Work is counted where tokens are produced or re-collected (substitution, argument
        // collection), so plain text of any length costs nothing against the cap.
        while let Some(t) = stack.pop() {
            if !t.is_ident() {
                out.push(t);
                continue;
            }
            if self.in_if && t.text == "defined" {
                let v = self.take_defined(&mut stack, &t)?;
                out.push(Tok {
                    kind: TokKind::Number,
                    text: if v { "1" } else { "0" }.to_string(),
                    ..t
                });
                continue;
            }
            if let Some(value) = self.dynamic_value(&t.text, t.span) {
                out.push(Tok {
                    kind: TokKind::Number,
                    text: value,
                    ..t
                });
                continue;
            }
            let Some(m) = self.defs.get(&t.text).cloned() else {
                out.push(t);
                continue;
            };
            let id = self.id_of(&t.text);
            if t.hide.as_ref().is_some_and(|h| h.contains(&id)) {
                out.push(t);
                continue;
            }
            let replaced = match &m.params {
                None => {
                    let hs = hide_add(&t.hide, id);
                    self.substitute(&m, &[], hs, t.span, depth)?
                }
                Some(params) => {
                    if !stack.last().is_some_and(|n| n.is_punct("(")) {
                        // A function-like macro name without `(` is an ordinary identifier.
                        out.push(t);
                        continue;
                    }
                    stack.pop();
                    let (args, rparen) = self.collect_args(&mut stack, &t)?;
                    let args = match (params.len(), args.len()) {
                        // `F()` passes no argument to a macro of no parameters.
                        (0, 1) if args[0].is_empty() => Vec::new(),
                        (n, k) if n == k => args,
                        (n, k) => {
                            return Err(Diagnostic::error(
                                t.span,
                                format!(
                                    "macro `{}' expects {n} argument{} but {k} given",
                                    t.text,
                                    if n == 1 { "" } else { "s" }
                                ),
                            ))
                        }
                    };
                    let hs = hide_add(&hide_intersect(&t.hide, &rparen.hide), id);
                    self.substitute(&m, &args, hs, t.span, depth)?
                }
            };
            stack.extend(replaced.into_iter().rev());
        }
        Ok(out)
    }

    fn dynamic_value(&self, name: &str, span: Span) -> Option<String> {
        match name {
            "__LINE__" => Some(span.line.to_string()),
            "__FILE__" => Some(self.source.to_string()),
            "__VERSION__" => Some(self.version.to_string()),
            _ => None,
        }
    }

    /// Collects the arguments of a call whose `(` was just taken; returns them and the `)`.
    fn collect_args(
        &mut self,
        stack: &mut Vec<Tok>,
        name: &Tok,
    ) -> Result<(Vec<Vec<Tok>>, Tok), Diagnostic> {
        let mut args = Vec::new();
        let mut cur = Vec::new();
        let mut nesting = 0usize;
        loop {
            let Some(t) = stack.pop() else {
                return Err(Diagnostic::error(
                    name.span,
                    format!("unterminated argument list invoking macro `{}'", name.text),
                ));
            };
            self.tick(t.span)?;
            if t.is_punct("(") {
                nesting += 1;
            } else if t.is_punct(")") {
                if nesting == 0 {
                    args.push(cur);
                    return Ok((args, t));
                }
                nesting -= 1;
            } else if t.is_punct(",") && nesting == 0 {
                args.push(std::mem::take(&mut cur));
                continue;
            }
            cur.push(t);
        }
    }

    /// The replacement list of `m` with arguments substituted and `##` applied
    /// (C++ [cpp.subst], [cpp.concat]); every token gets the hide set `hs` and the span of
    /// the macro name's use.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<Tok>],
        hs: HideSet,
        span: Span,
        depth: u32,
    ) -> Result<Vec<Tok>, Diagnostic> {
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut out: Vec<Tok> = Vec::new();
        let mut paste = false;
        // The left operand of a pending `##` was an empty argument (a placemarker).
        let mut left_empty = false;
        for (i, bt) in m.body.iter().enumerate() {
            if bt.kind == TokKind::Punct && bt.text == "##" && bt.param.is_none() {
                paste = true;
                continue;
            }
            let next_pastes = m
                .body
                .get(i + 1)
                .is_some_and(|n| n.kind == TokKind::Punct && n.text == "##");
            let items: Vec<Tok> = match bt.param {
                Some(p) => {
                    let Some(arg) = args.get(p) else {
                        continue;
                    };
                    if paste || next_pastes {
                        // Operands of `##` are not macro-expanded first.
                        arg.clone()
                    } else {
                        if expanded[p].is_none() {
                            expanded[p] = Some(self.expand_at(arg.clone(), depth + 1)?);
                        }
                        expanded[p].clone().unwrap_or_default()
                    }
                }
                None => vec![Tok {
                    kind: bt.kind,
                    text: bt.text.clone(),
                    span,
                    ws_before: bt.ws_before,
                    hide: None,
                }],
            };
            for _ in 0..items.len() {
                self.tick(span)?;
            }
            let now_empty = items.is_empty();
            let mut items = items.into_iter();
            if paste && !left_empty {
                // `x ## <empty>` leaves `x` as it is; otherwise the two tokens join.
                if let Some(right) = items.next() {
                    match out.pop() {
                        Some(left) => {
                            let text = format!("{}{}", left.text, right.text);
                            let Some(kind) = lex::lex_single(&text) else {
                                return Err(Diagnostic::error(
                                    span,
                                    format!(
                                        "pasting `{}' and `{}' does not give a valid \
                                         preprocessing token",
                                        left.text, right.text
                                    ),
                                ));
                            };
                            out.push(Tok {
                                kind,
                                text,
                                span,
                                ws_before: left.ws_before,
                                hide: None,
                            });
                        }
                        None => out.push(right),
                    }
                }
                out.extend(items);
                left_empty = false;
            } else {
                // `<empty> ## x` is `x`; an empty result stays a placemarker.
                out.extend(items);
                left_empty = now_empty;
            }
            paste = false;
        }
        for t in &mut out {
            t.span = span;
            t.hide = hide_union(&t.hide, &hs);
        }
        Ok(out)
    }
}

fn hide_add(h: &HideSet, id: u32) -> HideSet {
    let mut v: Vec<u32> = h.as_deref().unwrap_or(&[]).to_vec();
    if let Err(at) = v.binary_search(&id) {
        v.insert(at, id);
    }
    Some(v.into())
}

fn hide_intersect(a: &HideSet, b: &HideSet) -> HideSet {
    let (Some(a), Some(b)) = (a, b) else {
        return None;
    };
    let v: Vec<u32> = a.iter().copied().filter(|x| b.contains(x)).collect();
    if v.is_empty() {
        None
    } else {
        Some(v.into())
    }
}

fn hide_union(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(a), Some(b)) => {
            let mut v: Vec<u32> = a.iter().chain(b.iter()).copied().collect();
            v.sort_unstable();
            v.dedup();
            Some(v.into())
        }
    }
}
