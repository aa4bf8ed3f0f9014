//! Integer constant expressions of `#if`, `#elif` and `#line` (GLSL 4.60 §3.3: the C
//! operators, evaluated in 64-bit two's complement). `defined` and macro expansion are done
//! before, in `preprocess.rs`; what is left here is numbers, operators and parentheses.
//! Parts that short-circuiting does not evaluate raise no error (`defined(X) && X`,
//! `0 && 1/0`), as in C.

use super::expand::Tok;
use super::lex::TokKind;
use crate::glsl::diag::{Diagnostic, Span};

use crate::glsl::limits::MAX_PP_EXPRESSION_NESTING as MAX_NESTING;

/// The error past `MAX_NESTING`.
fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!(
            "preprocessor expression nested too deeply: more than {MAX_NESTING} levels (softgl's #if expression nesting limit)"
        ),
    )
}

/// Evaluates expressions over `toks`; `end` is the span errors at the end of the line use.
pub(crate) struct ExprParser<'a> {
    toks: &'a [Tok],
    pos: usize,
    end: Span,
}

impl<'a> ExprParser<'a> {
    pub fn new(toks: &'a [Tok], end: Span) -> Self {
        ExprParser { toks, pos: 0, end }
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Span of the next token, or the end span.
    pub fn here(&self) -> Span {
        self.toks.get(self.pos).map_or(self.end, |t| t.span)
    }

    /// Parses and evaluates one conditional expression.
    pub fn expression(&mut self) -> Result<i64, Diagnostic> {
        self.conditional(true, 0)
    }

    fn peek_punct(&self) -> Option<&str> {
        self.toks
            .get(self.pos)
            .filter(|t| t.kind == TokKind::Punct)
            .map(|t| t.text.as_str())
    }

    fn conditional(&mut self, eval: bool, depth: u32) -> Result<i64, Diagnostic> {
        if depth > MAX_NESTING {
            return Err(too_deep(self.here()));
        }
        let c = self.binary(1, eval, depth)?;
        if self.peek_punct() != Some("?") {
            return Ok(c);
        }
        self.pos += 1;
        let a = self.conditional(eval && c != 0, depth + 1)?;
        if self.peek_punct() != Some(":") {
            return Err(Diagnostic::error(
                self.here(),
                "expected `:' in preprocessor expression",
            ));
        }
        self.pos += 1;
        let b = self.conditional(eval && c == 0, depth + 1)?;
        Ok(if c != 0 { a } else { b })
    }

    /// Precedence climbing over the binary operators, loosest (`||`, 1) to tightest (10).
    fn binary(&mut self, min_prec: u8, eval: bool, depth: u32) -> Result<i64, Diagnostic> {
        let mut lhs = self.unary(eval, depth)?;
        loop {
            let Some(op) = self.peek_punct().map(str::to_string) else {
                return Ok(lhs);
            };
            let Some(prec) = precedence(&op) else {
                return Ok(lhs);
            };
            if prec < min_prec {
                return Ok(lhs);
            }
            let op_span = self.here();
            self.pos += 1;
            let rhs_eval = match op.as_str() {
                "&&" => eval && lhs != 0,
                "||" => eval && lhs == 0,
                _ => eval,
            };
            let rhs = self.binary(prec + 1, rhs_eval, depth)?;
            lhs = match op.as_str() {
                "||" => i64::from(lhs != 0 || rhs != 0),
                "&&" => i64::from(lhs != 0 && rhs != 0),
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "==" => i64::from(lhs == rhs),
                "!=" => i64::from(lhs != rhs),
                "<" => i64::from(lhs < rhs),
                ">" => i64::from(lhs > rhs),
                "<=" => i64::from(lhs <= rhs),
                ">=" => i64::from(lhs >= rhs),
                "<<" => lhs.wrapping_shl(rhs as u32),
                ">>" => lhs.wrapping_shr(rhs as u32),
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                "/" | "%" => {
                    if rhs == 0 {
                        if eval {
                            return Err(Diagnostic::error(
                                op_span,
                                "division by zero in preprocessor expression",
                            ));
                        }
                        0
                    } else if op == "/" {
                        lhs.wrapping_div(rhs)
                    } else {
                        lhs.wrapping_rem(rhs)
                    }
                }
                _ => lhs,
            };
        }
    }

    fn unary(&mut self, eval: bool, depth: u32) -> Result<i64, Diagnostic> {
        if depth > MAX_NESTING {
            return Err(too_deep(self.here()));
        }
        let Some(t) = self.toks.get(self.pos) else {
            return Err(Diagnostic::error(
                self.end,
                "missing operand in preprocessor expression",
            ));
        };
        match t.kind {
            TokKind::Punct => {
                let op = t.text.as_str();
                self.pos += 1;
                match op {
                    "+" => self.unary(eval, depth + 1),
                    "-" => Ok(self.unary(eval, depth + 1)?.wrapping_neg()),
                    "~" => Ok(!self.unary(eval, depth + 1)?),
                    "!" => Ok(i64::from(self.unary(eval, depth + 1)? == 0)),
                    "(" => {
                        let v = self.conditional(eval, depth + 1)?;
                        if self.peek_punct() != Some(")") {
                            return Err(Diagnostic::error(
                                self.here(),
                                "expected `)' in preprocessor expression",
                            ));
                        }
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => Err(Diagnostic::error(
                        t.span,
                        format!("unexpected `{op}' in preprocessor expression"),
                    )),
                }
            }
            TokKind::Number => {
                self.pos += 1;
                parse_int(&t.text).ok_or_else(|| {
                    Diagnostic::error(
                        t.span,
                        format!(
                            "invalid integer constant `{}' in preprocessor expression",
                            t.text
                        ),
                    )
                })
            }
            TokKind::Ident => {
                self.pos += 1;
                if eval {
                    // GLSL 4.60 §3.3: unlike C, an undefined identifier is an error.
                    Err(Diagnostic::error(
                        t.span,
                        format!(
                            "undefined identifier `{}' in preprocessor expression",
                            t.text
                        ),
                    ))
                } else {
                    Ok(0)
                }
            }
            TokKind::Other => Err(Diagnostic::error(
                t.span,
                format!("invalid character `{}'", t.text.escape_debug()),
            )),
        }
    }
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

/// A GLSL integer constant (GLSL 4.60 §4.1.3): decimal, octal (`0` prefix) or hex (`0x`),
/// with an optional `u`/`U` suffix; values wrap to 64 bits, larger ones are refused.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let body = text
        .strip_suffix('u')
        .or_else(|| text.strip_suffix('U'))
        .unwrap_or(text);
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        let mut lx = super::super::lex::Lexer::new(src);
        let line = lx
            .next_line()
            .unwrap_or_else(|| panic!("no line in {src:?}"));
        line.toks
            .into_iter()
            .map(|t| Tok {
                kind: t.kind,
                text: t.text,
                span: Span {
                    source: 0,
                    line: t.line,
                    column: t.col,
                },
                ws_before: t.ws_before,
                hide: None,
            })
            .collect()
    }

    fn eval(src: &str) -> Result<i64, String> {
        let t = toks(src);
        let mut p = ExprParser::new(&t, Span::default());
        let v = p.expression().map_err(|d| d.to_string())?;
        if !p.at_end() {
            return Err("trailing".into());
        }
        Ok(v)
    }

    #[test]
    fn all_operators_with_c_precedence() {
        assert_eq!(eval("1 + 2 * 3"), Ok(7));
        assert_eq!(eval("(1 + 2) * 3"), Ok(9));
        assert_eq!(eval("7 / 2 + 7 % 2"), Ok(4));
        assert_eq!(eval("1 << 4 >> 2"), Ok(4));
        assert_eq!(eval("1 < 2 == 1"), Ok(1));
        assert_eq!(eval("3 <= 2 || 2 >= 2 && 4 > 3"), Ok(1));
        assert_eq!(eval("6 & 3 | 8 ^ 1"), Ok(11));
        assert_eq!(eval("-1 + +2 + ~0 + !0 + !5"), Ok(1));
        assert_eq!(eval("1 ? 2 : 3"), Ok(2));
        assert_eq!(eval("0 ? 2 : 0 ? 3 : 4"), Ok(4));
        assert_eq!(eval("1 != 2"), Ok(1));
        assert_eq!(eval("0x10 + 010 + 1u"), Ok(25));
        assert_eq!(eval("10 - 2 - 3"), Ok(5));
    }

    #[test]
    fn errors_and_short_circuits() {
        assert!(eval("1 / 0").unwrap_err().contains("division by zero"));
        assert!(eval("1 % 0").unwrap_err().contains("division by zero"));
        assert_eq!(eval("0 && 1 / 0"), Ok(0));
        assert_eq!(eval("1 || X"), Ok(1));
        assert_eq!(eval("0 ? X : 5"), Ok(5));
        assert!(eval("X").unwrap_err().contains("undefined identifier `X'"));
        assert!(eval("1.0")
            .unwrap_err()
            .contains("invalid integer constant `1.0'"));
        assert!(eval("(1").unwrap_err().contains("expected `)'"));
        assert!(eval("1 +").unwrap_err().contains("missing operand"));
        assert!(eval("1 ? 2").unwrap_err().contains("expected `:'"));
        assert_eq!(eval("1 2"), Err("trailing".into()));
        // On a compiler thread, whose stack the nesting limit is sized for.
        crate::jit::run_on_compiler_thread(|| {
            let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
            assert!(eval(&deep).unwrap_err().contains("nested too deeply"));
            let minus = format!("{}1", "- ".repeat(5000));
            assert!(eval(&minus).unwrap_err().contains("nested too deeply"));
        });
    }

    #[test]
    fn wrapping_arithmetic_never_panics() {
        assert_eq!(eval("0x8000000000000000 / -1"), Ok(i64::MIN));
        assert_eq!(eval("1 << 70"), Ok(1 << 6));
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF"), Ok(-1));
        assert!(eval("0x1FFFFFFFFFFFFFFFF").is_err());
        assert!(eval("09").is_err());
    }
}
