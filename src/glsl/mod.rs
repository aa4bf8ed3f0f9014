//! The GLSL front end, written by us (DESIGN.md §3): preprocess → parse → check → lower to
//! [`crate::ir::Module`]. Diagnostics use the GL info-log form; nothing here panics on any
//! input.
//!
//! | file | owns |
//! |---|---|
//! | `diag.rs` | spans, diagnostics, info-log rendering |
//! | `preprocess.rs`, `pp/` | the preprocessor: directives, macros, `#if` expressions, pp-tokens |

#![forbid(unsafe_code)]

pub mod diag;
pub mod preprocess;

pub use diag::{Diagnostic, Severity, Span};

use crate::ir;

/// The result of compiling one shader: the module when it compiled, and the info log
/// (errors and warnings) either way.
#[derive(Clone, Debug)]
pub struct CompileOutput {
    pub module: Option<ir::Module>,
    pub info_log: String,
}

/// Compiles one shader stage from its source (the strings of glShaderSource, concatenated).
///
/// INTERIM: the front end is being built; until then every shader fails to compile with a
/// message saying so.
pub fn compile(stage: ir::Stage, source: &str) -> CompileOutput {
    let _ = (stage, source);
    CompileOutput {
        module: None,
        info_log: "0:1(1): error: the GLSL front end is not built yet\n".to_string(),
    }
}
