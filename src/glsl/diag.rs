//! Diagnostics of the GLSL front end, rendered in the GL info-log form
//! `0:LINE(COLUMN): error: message`.

use std::fmt;

/// A position in the source: source-string number (as `#line` sets it), line (1-based) and
/// column (1-based).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub source: u32,
    pub line: u32,
    pub column: u32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message for the info log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            severity: Severity::Error,
            message: message.into(),
        }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            severity: Severity::Warning,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}({}): {}: {}",
            self.span.source, self.span.line, self.span.column, sev, self.message
        )
    }
}

/// Renders diagnostics as an info log: one per line.
pub fn render_log(diags: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diags {
        s.push_str(&d.to_string());
        s.push('\n');
    }
    s
}
