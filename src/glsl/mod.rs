//! The GLSL front end, written by us (DESIGN.md §3): preprocess → lex → parse → check and
//! lower to [`crate::ir::Module`]. Diagnostics use the GL info-log form; nothing here panics
//! on any input.
//!
//! | file | owns |
//! |---|---|
//! | `diag.rs` | spans, diagnostics, info-log rendering |
//! | `preprocess.rs`, `pp/` | the preprocessor: directives, macros, `#if` expressions, pp-tokens |
//! | `lex.rs` | pp-tokens → keywords (by version), identifiers, literals |
//! | `ast.rs` | the syntax tree with spans |
//! | `parse.rs` | recursive-descent parser |
//! | `types.rs` | GLSL types, tight and std140 layouts |
//! | `consts.rs` | constant-expression folding (array sizes, case labels, offsets) |
//! | `lower.rs` | checks + lowering: the context, scopes, types, the translation unit |
//! | `interface.rs` | globals, uniforms, std140 blocks, inputs/outputs, built-in variables |
//! | `stmt.rs` | statements, function declarations and inlining |
//! | `place.rs` | storage places: indexing, members, swizzles, reads and writes |
//! | `expr.rs` | operators, conversions, constructors, user calls (inlined) |
//! | `builtins.rs` | built-in functions and texture lookups |
//! | `verify.rs` | structural check of emitted IR (kinds, labels), used by the tests |
//!
//! Checking and lowering are one pass: each expression is typed as it is lowered, so the
//! two can never disagree about a type.

#![forbid(unsafe_code)]

pub mod ast;
mod builtins;
pub mod consts;
pub mod diag;
mod expr;
mod interface;
pub mod lex;
mod lower;
pub mod parse;
mod place;
pub mod preprocess;
mod stmt;
pub mod types;
pub mod verify;

#[cfg(test)]
mod tests;

pub use diag::{Diagnostic, Severity, Span};

use crate::ir;

/// The result of compiling one shader: the module when it compiled, and the info log
/// (errors and warnings) either way.
#[derive(Clone, Debug)]
pub struct CompileOutput {
    pub module: Option<ir::Module>,
    pub info_log: String,
}

/// GLSL versions we accept (GLSL 4.60 §3.3).
const VERSIONS: &[u32] = &[
    110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460,
];

/// Compiles one shader stage from its source (the strings of glShaderSource, concatenated).
pub fn compile(stage: ir::Stage, source: &str) -> CompileOutput {
    let (module, diags) = compile_diags(stage, source);
    CompileOutput {
        module,
        info_log: diag::render_log(&diags),
    }
}

/// Like [`compile`], with the diagnostics as values.
pub fn compile_diags(stage: ir::Stage, source: &str) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let pp = match preprocess::preprocess(source) {
        Ok(pp) => pp,
        Err(d) => return (None, d),
    };
    let mut diags = pp.warnings.clone();
    let first = Span {
        source: 0,
        line: 1,
        column: 1,
    };
    if !VERSIONS.contains(&pp.version) {
        diags.push(Diagnostic::error(
            first,
            format!("GLSL {} is not supported", pp.version),
        ));
        return (None, diags);
    }
    if pp.profile == preprocess::Profile::Es {
        diags.push(Diagnostic::error(
            first,
            "GLSL ES is not supported".to_string(),
        ));
        return (None, diags);
    }
    let mut lw = lower::Lowerer::new(stage, pp.version, pp.profile);
    let (_, int64) = lw.set_extensions(&pp.extensions);
    let toks = lex::lex(&pp.tokens, pp.version, pp.profile, int64, &mut lw.diags);
    let unit = match parse::Parser::new(&toks).parse_unit() {
        Ok(u) => u,
        Err(e) => {
            lw.diags.push(e);
            diags.append(&mut lw.diags);
            return (None, diags);
        }
    };
    if lw.diags.iter().any(|d| d.severity == Severity::Error) {
        diags.append(&mut lw.diags);
        return (None, diags);
    }
    lw.lower_unit(unit);
    let (m, mut d) = lw.finish();
    diags.append(&mut d);
    (m, diags)
}
