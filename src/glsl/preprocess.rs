//! The GLSL preprocessor (GLSL 4.60 §3.3): directives, macros, `#if` expressions; produces
//! pp-tokens with spans for the parser.

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
    pub profile: Profile,
    /// `#extension` directives in source order (`all` is kept as the name "all").
    pub extensions: Vec<(String, ExtBehavior, Span)>,
    /// Warnings (errors make `preprocess` return `Err`).
    pub warnings: Vec<super::Diagnostic>,
}

const PUNCTS: [&str; 47] = [
    "<<=", ">>=", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "*=", "/=",
    "%=", "+=", "-=", "&=", "^=", "|=", "(", ")", "[", "]", "{", "}", ".", ",", ";", ":", "?", "+",
    "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "#", "\\",
];

/// Interim tokenizer without directives other than `#version` and `#extension`; the full
/// preprocessor replaces it.
pub fn preprocess(source: &str) -> Result<PpOutput, Vec<super::Diagnostic>> {
    let mut out = PpOutput {
        tokens: Vec::new(),
        version: 110,
        profile: Profile::Core,
        extensions: Vec::new(),
        warnings: Vec::new(),
    };
    for (li, line) in source.lines().enumerate() {
        let line_no = li as u32 + 1;
        let code = line.split("//").next().unwrap_or("");
        let t = code.trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.first().copied() {
                Some("version") => {
                    out.version = words.get(1).and_then(|v| v.parse().ok()).unwrap_or(110);
                    if words.get(2) == Some(&"compatibility") {
                        out.profile = Profile::Compatibility;
                    }
                }
                Some("extension") => {
                    let name = words
                        .get(1)
                        .unwrap_or(&"")
                        .trim_end_matches(':')
                        .to_string();
                    let beh = match words.last().copied() {
                        Some("require") => ExtBehavior::Require,
                        Some("warn") => ExtBehavior::Warn,
                        Some("disable") => ExtBehavior::Disable,
                        _ => ExtBehavior::Enable,
                    };
                    let span = Span {
                        source: 0,
                        line: line_no,
                        column: 1,
                    };
                    out.extensions.push((name, beh, span));
                }
                _ => {}
            }
            continue;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let span = Span {
                source: 0,
                line: line_no,
                column: i as u32 + 1,
            };
            if c.is_whitespace() {
                i += 1;
            } else if c.is_ascii_alphabetic() || c == '_' {
                let s = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let text: String = chars[s..i].iter().collect();
                out.tokens.push(PpToken {
                    kind: PpKind::Ident,
                    text,
                    span,
                });
            } else if c.is_ascii_digit()
                || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                let s = i;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric()
                        || chars[i] == '.'
                        || ((chars[i] == '+' || chars[i] == '-')
                            && matches!(chars[i - 1], 'e' | 'E')))
                {
                    i += 1;
                }
                let text: String = chars[s..i].iter().collect();
                out.tokens.push(PpToken {
                    kind: PpKind::Number,
                    text,
                    span,
                });
            } else {
                let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
                let p = PUNCTS.iter().find(|p| rest.starts_with(**p)).copied();
                let p = p.unwrap_or("?");
                i += p.chars().count().max(1);
                out.tokens.push(PpToken {
                    kind: PpKind::Punct,
                    text: p.to_string(),
                    span,
                });
            }
        }
    }
    Ok(out)
}
