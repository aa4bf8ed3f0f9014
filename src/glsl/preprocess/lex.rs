//! Lexing for the preprocessor: line endings, line continuations, comments, and the split of
//! one source string into logical lines of raw pp-tokens at their ORIGINAL positions.
//! Directives, macros and `#line` mapping are left to `preprocess.rs`; this file never
//! reports errors except an unterminated comment, so skipped groups cost nothing.

/// Kind of a raw token; `Other` is a character GLSL does not allow outside comments
/// (GLSL 4.60 §3.1), reported only when it reaches active text or a directive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    Ident,
    Number,
    Punct,
    Other,
}

/// A token of one logical line, at its physical position (1-based line and column, in
/// characters, before any `#line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawTok {
    pub kind: TokKind,
    pub text: String,
    pub line: u32,
    pub col: u32,
    /// Whitespace or a comment came before it on its logical line (decides `#define F(x)`
    /// against `#define F (x)`, and whether two definitions are identical).
    pub ws_before: bool,
}

/// One logical line: the tokens between two new-lines that are not removed by a line
/// continuation or swallowed by a block comment.
#[derive(Clone, Debug)]
pub(crate) struct LogicalLine {
    pub toks: Vec<RawTok>,
    /// Physical line on which the logical line ends (`#line` counts from the next one).
    pub last_line: u32,
    /// Position of a `/*` that never ends.
    pub unterminated_comment: Option<(u32, u32)>,
}

/// A character after line splicing, at its physical position.
#[derive(Copy, Clone, Debug)]
struct PChar {
    c: char,
    line: u32,
    col: u32,
}

/// Punctuators, longest first so the first match is the longest (GLSL 4.60 §3.8 operators,
/// plus `#` and `##` for directives and token pasting).
const PUNCTS: [&str; 47] = [
    "<<=", ">>=", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "*=", "/=",
    "%=", "+=", "-=", "&=", "^=", "|=", "##", "(", ")", "[", "]", "{", "}", ".", ",", ";", ":",
    "?", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "#",
];

/// Splits a source string into logical lines.
pub(crate) struct Lexer {
    chars: Vec<PChar>,
    pos: usize,
}

impl Lexer {
    /// Normalizes `\r\n`, `\r` and `\n` to one new-line and removes `\` new-line pairs
    /// (GLSL 4.60 §3.2: line continuation happens before comments and preprocessing).
    pub fn new(source: &str) -> Lexer {
        let mut chars = Vec::with_capacity(source.len());
        let mut line = 1u32;
        let mut col = 1u32;
        // A UTF-8 byte-order mark that editors put first is not part of the shader.
        let source = source.strip_prefix('\u{feff}').unwrap_or(source);
        let mut it = source.chars().peekable();
        // A pending backslash that may start a line continuation.
        let mut pending_bs: Option<PChar> = None;
        while let Some(c) = it.next() {
            let is_nl = c == '\n' || c == '\r';
            if is_nl {
                if c == '\r' && it.peek() == Some(&'\n') {
                    it.next();
                }
                let nl = PChar { c: '\n', line, col };
                line = line.saturating_add(1);
                col = 1;
                if pending_bs.take().is_some() {
                    // Line continuation: both the backslash and the new-line vanish.
                    continue;
                }
                chars.push(nl);
                continue;
            }
            if let Some(bs) = pending_bs.take() {
                chars.push(bs);
            }
            let pc = PChar { c, line, col };
            col = col.saturating_add(1);
            if c == '\\' {
                pending_bs = Some(pc);
            } else {
                chars.push(pc);
            }
        }
        if let Some(bs) = pending_bs {
            chars.push(bs);
        }
        Lexer { chars, pos: 0 }
    }

    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).map(|p| p.c)
    }

    /// The next logical line, or `None` at the end of the source.
    pub fn next_line(&mut self) -> Option<LogicalLine> {
        if self.pos >= self.chars.len() {
            return None;
        }
        let mut toks = Vec::new();
        let mut ws = false;
        let mut unterminated_comment = None;
        let mut last_line = self.chars[self.pos].line;
        while let Some(pc) = self.chars.get(self.pos).copied() {
            last_line = pc.line;
            let c = pc.c;
            if c == '\n' {
                self.pos += 1;
                break;
            }
            if matches!(c, ' ' | '\t' | '\x0b' | '\x0c') {
                ws = true;
                self.pos += 1;
                continue;
            }
            if c == '/' && self.peek(1) == Some('/') {
                // A comment counts as one space (GLSL 4.60 §3.4); the new-line stays.
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
                ws = true;
                continue;
            }
            if c == '/' && self.peek(1) == Some('*') {
                self.pos += 2;
                let mut closed = false;
                while let Some(p) = self.chars.get(self.pos) {
                    last_line = p.line;
                    if p.c == '*' && self.peek(1) == Some('/') {
                        self.pos += 2;
                        closed = true;
                        break;
                    }
                    self.pos += 1;
                }
                if !closed {
                    unterminated_comment = Some((pc.line, pc.col));
                }
                ws = true;
                continue;
            }
            let (kind, text) = self.lex_token();
            toks.push(RawTok {
                kind,
                text,
                line: pc.line,
                col: pc.col,
                ws_before: ws,
            });
            ws = false;
        }
        Some(LogicalLine {
            toks,
            last_line,
            unterminated_comment,
        })
    }

    /// Lexes one token at `pos` (not whitespace, not a comment, not a new-line).
    fn lex_token(&mut self) -> (TokKind, String) {
        let c = self.peek(0).unwrap_or(' ');
        let mut text = String::new();
        if c.is_ascii_alphabetic() || c == '_' {
            while let Some(c) = self
                .peek(0)
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                text.push(c);
                self.pos += 1;
            }
            return (TokKind::Ident, text);
        }
        if c.is_ascii_digit() || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit())) {
            // A pp-number (C++ [lex.ppnumber]): digits, letters, `_`, `.`, and a sign right
            // after an exponent letter, so `1.0e-5`, `0x1Fu`, `.5`, `1.` and `1.0lf` are
            // one token each. Hex numbers have no exponent, so `0x1e-1` is three.
            while let Some(c) = self.peek(0) {
                if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                    text.push(c);
                    self.pos += 1;
                    let hex = text.starts_with("0x") || text.starts_with("0X");
                    if matches!(c, 'e' | 'E') && !hex {
                        if let Some(s) = self.peek(0).filter(|s| *s == '+' || *s == '-') {
                            text.push(s);
                            self.pos += 1;
                        }
                    }
                } else {
                    break;
                }
            }
            return (TokKind::Number, text);
        }
        for p in PUNCTS {
            if p.chars()
                .enumerate()
                .all(|(k, pc)| self.peek(k) == Some(pc))
            {
                self.pos += p.chars().count();
                return (TokKind::Punct, p.to_string());
            }
        }
        self.pos += 1;
        text.push(c);
        (TokKind::Other, text)
    }
}

/// Lexes `text` as exactly one token (the result of `##` pasting), or `None`.
pub(crate) fn lex_single(text: &str) -> Option<TokKind> {
    if text.contains(['\n', '\r', '\\']) {
        return None;
    }
    let mut lx = Lexer::new(text);
    let line = lx.next_line()?;
    if lx.next_line().is_some() || line.unterminated_comment.is_some() {
        return None;
    }
    match line.toks.as_slice() {
        [t] if t.text == text && t.kind != TokKind::Other => Some(t.kind),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(src: &str) -> Vec<Vec<(TokKind, String, u32, u32)>> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        while let Some(l) = lx.next_line() {
            out.push(
                l.toks
                    .into_iter()
                    .map(|t| (t.kind, t.text, t.line, t.col))
                    .collect(),
            );
        }
        out
    }

    #[test]
    fn numbers_are_pp_numbers() {
        let l = lines("1.0e-5 0x1Fu .5 1. 1.0lf 0x1e-1 3E+2f");
        let texts: Vec<&str> = l[0].iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            texts,
            ["1.0e-5", "0x1Fu", ".5", "1.", "1.0lf", "0x1e", "-", "1", "3E+2f"]
        );
        assert!(l[0].iter().all(|t| t.0 != TokKind::Ident));
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        let l = lines("a<<=b>>c^^d##e.f");
        let texts: Vec<&str> = l[0].iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            texts,
            ["a", "<<=", "b", ">>", "c", "^^", "d", "##", "e", ".", "f"]
        );
    }

    #[test]
    fn line_endings_and_continuations() {
        let l = lines("a\r\nb\rc\nd\\\r\ne f");
        assert_eq!(l.len(), 4);
        assert_eq!(l[1][0], (TokKind::Ident, "b".into(), 2, 1));
        assert_eq!(l[2][0], (TokKind::Ident, "c".into(), 3, 1));
        // `d\` + `e f`: one logical line, `de` one identifier at line 4.
        assert_eq!(l[3][0], (TokKind::Ident, "de".into(), 4, 1));
        assert_eq!(l[3][1], (TokKind::Ident, "f".into(), 5, 3));
    }

    #[test]
    fn comments_are_spaces_and_block_comments_join_lines() {
        let l = lines("a/*x\ny*/b // c\nd");
        assert_eq!(l.len(), 2);
        assert_eq!(l[0][0].1, "a");
        assert_eq!(l[0][1], (TokKind::Ident, "b".into(), 2, 4));
        assert_eq!(l[1][0], (TokKind::Ident, "d".into(), 3, 1));
        let mut lx = Lexer::new("a /* never");
        assert_eq!(lx.next_line().unwrap().unterminated_comment, Some((1, 3)));
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let l = lines("\u{feff}a \u{feff}");
        assert_eq!(l[0][0], (TokKind::Ident, "a".into(), 1, 1));
        assert_eq!(l[0][1].0, TokKind::Other);
    }

    #[test]
    fn odd_characters_are_other_tokens() {
        let l = lines("é\0$\\x");
        let kinds: Vec<TokKind> = l[0].iter().map(|t| t.0).collect();
        assert_eq!(
            kinds,
            [
                TokKind::Other,
                TokKind::Other,
                TokKind::Other,
                TokKind::Other,
                TokKind::Ident
            ]
        );
    }

    #[test]
    fn lex_single_accepts_one_token_only() {
        assert_eq!(lex_single("ab1"), Some(TokKind::Ident));
        assert_eq!(lex_single("<<="), Some(TokKind::Punct));
        assert_eq!(lex_single("12"), Some(TokKind::Number));
        assert_eq!(lex_single("+-"), None);
        assert_eq!(lex_single("a/"), None);
        assert_eq!(lex_single("/*"), None);
    }
}
