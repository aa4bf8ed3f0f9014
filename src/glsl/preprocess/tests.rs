//! Tests of the whole preprocessor through `preprocess`: each feature of GLSL 4.60 §3.3,
//! the exact info-log text of errors, and robustness (random input, macro bombs).

use super::*;
use crate::glsl::diag::render_log;
use crate::glsl::limits::{MAX_MACRO_NESTING, MAX_PP_EXPRESSION_NESTING};

/// The token texts of a source that must preprocess cleanly.
fn texts(src: &str) -> Vec<String> {
    match preprocess(src) {
        Ok(out) => out.tokens.into_iter().map(|t| t.text).collect(),
        Err(d) => panic!("unexpected errors for {src:?}:\n{}", render_log(&d)),
    }
}

fn joined(src: &str) -> String {
    texts(src).join(" ")
}

/// The info log of a source that must fail.
fn log(src: &str) -> String {
    match preprocess(src) {
        Ok(out) => panic!("expected errors for {src:?}, got {:?}", out.tokens),
        Err(d) => render_log(&d),
    }
}

fn ok(src: &str) -> PpOutput {
    match preprocess(src) {
        Ok(out) => out,
        Err(d) => panic!("unexpected errors for {src:?}:\n{}", render_log(&d)),
    }
}

fn span(source: u32, line: u32, column: u32) -> Span {
    Span {
        source,
        line,
        column,
    }
}

#[test]
fn tokens_kinds_and_spans() {
    let out = ok("void main() {\n  x = 1.0e-5 + .5;\n}");
    let t = &out.tokens;
    assert_eq!(t[0].kind, PpKind::Ident);
    assert_eq!(t[0].span, span(0, 1, 1));
    assert_eq!(t[1].text, "main");
    assert_eq!(t[1].span, span(0, 1, 6));
    let x = t.iter().position(|t| t.text == "x").unwrap();
    assert_eq!(t[x].span, span(0, 2, 3));
    assert_eq!(t[x + 2].kind, PpKind::Number);
    assert_eq!(t[x + 2].text, "1.0e-5");
    assert_eq!(t[x + 3].kind, PpKind::Punct);
    assert_eq!(t[x + 4].text, ".5");
    assert_eq!(t.last().unwrap().span, span(0, 3, 1));
    assert_eq!(
        joined("a+=b<<=c 0x1Fu 1. 1.0lf"),
        "a += b <<= c 0x1Fu 1. 1.0lf"
    );
}

#[test]
fn comments_continuations_and_line_endings() {
    assert_eq!(joined("a/* x */b // c\nd"), "a b d");
    // A block comment spanning lines is one space; the token after it keeps its place.
    let out = ok("a /* 1\n 2\n */ b\nc");
    assert_eq!(out.tokens[1].span, span(0, 3, 5));
    assert_eq!(out.tokens[2].span, span(0, 4, 1));
    // A continued directive and a continued identifier.
    assert_eq!(joined("#define X 1 \\\n + 2\nX\nab\\\ncd"), "1 + 2 abcd");
    let out = ok("a\r\nb\rc\n\rd");
    let lines: Vec<u32> = out.tokens.iter().map(|t| t.span.line).collect();
    assert_eq!(lines, [1, 2, 3, 5]);
    assert_eq!(log("a /* b"), "0:1(3): error: unterminated comment\n");
}

#[test]
fn version_and_profiles() {
    let out = ok("int x;");
    assert_eq!((out.version, out.profile), (110, Profile::Core));
    let out = ok("// comment\n/* c */ #version 450 core\nint x;");
    assert_eq!((out.version, out.profile), (450, Profile::Core));
    let out = ok("#version 330");
    assert_eq!((out.version, out.profile), (330, Profile::Core));
    let out = ok("#version 460 compatibility\n");
    assert_eq!((out.version, out.profile), (460, Profile::Compatibility));
    let out = ok("#version 100\n");
    assert_eq!((out.version, out.profile), (100, Profile::Es));
    let out = ok("#version 300 es\n");
    assert_eq!((out.version, out.profile), (300, Profile::Es));
    let out = ok("#version 320 es\n");
    assert_eq!((out.version, out.profile), (320, Profile::Es));
    assert_eq!(
        log("#version 340\n"),
        "0:1(10): error: version 340 is not supported\n"
    );
    assert_eq!(
        log("#version 300\n"),
        "0:1(10): error: version 300 is not supported\n"
    );
    assert_eq!(
        log("#version 330 es\n"),
        "0:1(10): error: version 330 es is not supported\n"
    );
    assert_eq!(
        log("#version 130 core\n"),
        "0:1(14): error: profiles need version 150 or later, not 130\n"
    );
    assert_eq!(
        log("#version 450 foo\n"),
        "0:1(14): error: invalid profile `foo'\n"
    );
    assert_eq!(
        log("int x;\n#version 450\n"),
        "0:2(1): error: #version must come before anything else but comments and white space\n"
    );
    assert_eq!(
        log("#version\n"),
        "0:1(2): error: #version needs a version number\n"
    );
}

#[test]
fn predefined_macros() {
    let src = "#version 450\nGL_core_profile __VERSION__ __LINE__ __FILE__ GL_ARB_bindless_texture";
    assert_eq!(joined(src), "1 450 2 0 1");
    let src =
        "#version 450 compatibility\n#ifdef GL_core_profile\nno\n#endif\nGL_compatibility_profile";
    assert_eq!(joined(src), "1");
    let src = "#version 300 es\nGL_ES\n#ifdef GL_core_profile\nno\n#endif";
    assert_eq!(joined(src), "1");
    let src = "#ifdef GL_ES\nno\n#endif\n__VERSION__";
    assert_eq!(joined(src), "110");
    for ext in SUPPORTED_EXTENSIONS {
        assert_eq!(joined(ext), "1", "{ext}");
    }
    assert_eq!(
        joined("#if defined(__LINE__) && defined __FILE__\nyes\n#endif"),
        "yes"
    );
}

#[test]
fn object_and_function_macros() {
    assert_eq!(joined("#define N 4\nfloat a[N];"), "float a [ 4 ] ;");
    assert_eq!(
        joined("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(x, f(y, z))"),
        "( ( x ) > ( f ( y , z ) ) ? ( x ) : ( f ( y , z ) ) )"
    );
    // Nested parentheses, empty arguments, zero parameters.
    assert_eq!(
        joined("#define F(a, b) [a|b]\nF((1, 2), )"),
        "[ ( 1 , 2 ) | ]"
    );
    assert_eq!(joined("#define G() g\nG() G"), "g G");
    assert_eq!(joined("#define H(x) <x>\nH()"), "< >");
    // `(` not touching the name: object-like.
    assert_eq!(joined("#define O (x) x\nO"), "( x ) x");
    // A function-like macro name without `(` is left alone.
    assert_eq!(joined("#define F(x) x\nF + 1"), "F + 1");
    // Calls spanning lines, and arguments expanded before substitution.
    assert_eq!(joined("#define F(x) x x\n#define Y 7\nF(\nY\n)"), "7 7");
    // Rescanning with the rest of the text.
    assert_eq!(joined("#define F(x) x\n#define G F\nG(3)"), "3");
    assert_eq!(joined("#define A B\n#define B 5\nA"), "5");
    // #undef.
    assert_eq!(joined("#define A 1\n#undef A\nA"), "A");
    // Token pasting.
    assert_eq!(
        joined("#define CAT(a, b) a ## b\nCAT(vec, 4) CAT(x, ) CAT(, y)"),
        "vec4 x y"
    );
    assert_eq!(
        log("#define CAT(a, b) a ## b\nCAT(+, /)"),
        "0:2(1): error: pasting `+' and `/' does not give a valid preprocessing token\n"
    );
}

#[test]
fn recursion_guard() {
    assert_eq!(joined("#define A A + 1\nA"), "A + 1");
    assert_eq!(joined("#define A B\n#define B A\nA B"), "A B");
    assert_eq!(joined("#define f(x) f(x + 1)\nf(2)"), "f ( 2 + 1 )");
    // C++ [cpp.rescan] example shape: the inner f is not expanded again.
    assert_eq!(
        joined("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)"),
        "2 * 9 * g"
    );
}

#[test]
fn expansion_spans_are_the_use() {
    let out = ok("#define M a + \\\n b\n  x M\n");
    let t = &out.tokens;
    assert_eq!(t[0].span, span(0, 3, 3));
    for tok in &t[1..] {
        assert_eq!(tok.span, span(0, 3, 5), "{tok:?}");
    }
    assert_eq!(joined("#define L __LINE__\n\n L"), "3");
}

#[test]
fn redefinition_rules() {
    assert_eq!(joined("#define A 1 + 2\n#define A 1  +  2\nA"), "1 + 2");
    assert_eq!(joined("#define F(x) x\n#define F(x) x\nF(1)"), "1");
    assert_eq!(
        log("#define A 1\n#define A 2\n"),
        "0:2(9): error: macro `A' redefined\n"
    );
    assert_eq!(
        log("#define A 1+2\n#define A 1 + 2\n"),
        "0:2(9): error: macro `A' redefined\n"
    );
    assert_eq!(
        log("#define F(x) x\n#define F(y) y\n"),
        "0:2(9): error: macro `F' redefined\n"
    );
}

#[test]
fn reserved_names() {
    assert_eq!(
        log("#define GL_FOO 1\n"),
        "0:1(9): error: names beginning with `GL_' are reserved: cannot define `GL_FOO'\n"
    );
    assert_eq!(
        log("#undef GL_ES\n"),
        "0:1(8): error: names beginning with `GL_' are reserved: cannot undefine `GL_ES'\n"
    );
    assert_eq!(
        log("#define __LINE__ 1\n"),
        "0:1(9): error: cannot define predefined macro `__LINE__'\n"
    );
    let out = ok("#define A__B 1\nA__B");
    assert_eq!(out.tokens[0].text, "1");
    assert_eq!(
        render_log(&out.warnings),
        "0:1(9): warning: names containing `__' are reserved: `A__B'\n"
    );
}

#[test]
fn define_syntax_errors() {
    assert_eq!(
        log("#define\n"),
        "0:1(2): error: #define needs a macro name\n"
    );
    assert_eq!(
        log("#define 1 2\n"),
        "0:1(2): error: #define needs a macro name\n"
    );
    assert_eq!(
        log("#define F(a,) a\n"),
        "0:1(13): error: invalid parameter list of macro `F'\n"
    );
    assert_eq!(
        log("#define F(a, a) a\n"),
        "0:1(14): error: invalid parameter list of macro `F'\n"
    );
    assert_eq!(
        log("#define F(a\n"),
        "0:1(11): error: invalid parameter list of macro `F'\n"
    );
    assert_eq!(
        log("#define P ## x\n"),
        "0:1(9): error: `##' cannot appear at either end of a macro expansion\n"
    );
    assert_eq!(
        log("#define F(a, b) a\nF(1)"),
        "0:2(1): error: macro `F' expects 2 arguments but 1 given\n"
    );
    assert_eq!(
        log("#define F(a) a\nF(1, 2)"),
        "0:2(1): error: macro `F' expects 1 argument but 2 given\n"
    );
    assert_eq!(
        log("#define F(a) a\nF((1)\n"),
        "0:2(1): error: unterminated argument list invoking macro `F'\n"
    );
}

#[test]
fn conditionals() {
    let src = "#if 1\na\n#elif 1\nb\n#else\nc\n#endif";
    assert_eq!(joined(src), "a");
    let src = "#if 0\na\n#elif 2 > 1\nb\n#else\nc\n#endif";
    assert_eq!(joined(src), "b");
    let src = "#if 0\na\n#elif 0\nb\n#else\nc\n#endif";
    assert_eq!(joined(src), "c");
    let src = "#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n#ifndef Y\nc\n#endif";
    assert_eq!(joined(src), "a c");
    // Nesting inside skipped groups, and skipped groups are not checked.
    let src = "#if 0\n#if 1\na\n#elif 1/0\nb\n#else\nc\n#endif\n#bogus $ 1/0\n#endif\nc";
    assert_eq!(joined(src), "c");
    // A taken branch means later #elif are not evaluated.
    assert_eq!(joined("#if 1\na\n#elif 1/0\nb\n#endif"), "a");
    // defined, with and without parentheses; macros expanded in #if.
    let src = "#define A 3\n#define B A * 2\n#if defined(A) && defined B && B == 6\nyes\n#endif";
    assert_eq!(joined(src), "yes");
    assert_eq!(joined("#if !defined(NOPE) || NOPE\nyes\n#endif"), "yes");
    // `defined` that a macro produces works too, and its operand is not expanded.
    let src = "#define HAS_A defined(A)\n#define HAS_B defined B\n#define A B\n\
               #if HAS_A && !HAS_B && defined A\nyes\n#endif";
    assert_eq!(joined(src), "yes");
    assert_eq!(
        joined("#define F(x) (x + 1)\n#if F(2) == 3\nyes\n#endif"),
        "yes"
    );
    assert_eq!(
        joined("#if (1 ? 2 : 3) - 2 || -1 << 2 == ~3 ^ 0 % 5 * 2\nyes\n#endif"),
        "yes"
    );
}

#[test]
fn conditional_errors() {
    assert_eq!(log("#if 1\na\n"), "0:1(1): error: unterminated #if\n");
    assert_eq!(
        log("#ifdef A\n#if 0\n#endif\n"),
        "0:1(1): error: unterminated #if\n"
    );
    assert_eq!(log("#endif\n"), "0:1(1): error: #endif without #if\n");
    assert_eq!(log("#else\n"), "0:1(1): error: #else without #if\n");
    assert_eq!(log("#elif 1\n"), "0:1(1): error: #elif without #if\n");
    assert_eq!(
        log("#if 1\n#else\n#else\n#endif\n"),
        "0:3(1): error: #else after #else\n"
    );
    assert_eq!(
        log("#if 1\n#else\n#elif 1\n#endif\n"),
        "0:3(1): error: #elif after #else\n"
    );
    assert_eq!(
        log("#if 1 / 0\n#endif\n"),
        "0:1(7): error: division by zero in preprocessor expression\n"
    );
    assert_eq!(
        log("#if X\n#endif\n"),
        "0:1(5): error: undefined identifier `X' in preprocessor expression\n"
    );
    assert_eq!(
        log("#if\n#endif\n"),
        "0:1(2): error: #if with no expression\n"
    );
    assert_eq!(
        log("#if defined\n#endif\n"),
        "0:1(5): error: `defined' needs a macro name\n"
    );
    assert_eq!(
        log("#if defined(A\n#endif\n"),
        "0:1(5): error: `defined' needs a macro name\n"
    );
    assert_eq!(
        log("#if defined 1\n#endif\n"),
        "0:1(5): error: `defined' needs a macro name\n"
    );
    assert_eq!(
        log("#if 1 2\n#endif\n"),
        "0:1(7): error: unexpected tokens at the end of #if\n"
    );
    assert_eq!(
        log("#ifdef\n#endif\n"),
        "0:1(2): error: #ifdef needs a macro name\n"
    );
    assert_eq!(
        log("#ifdef A B\n#endif\n"),
        "0:1(10): error: unexpected `B' after #ifdef\n"
    );
    assert_eq!(
        log("#if 1\n#endif x\n"),
        "0:2(8): error: unexpected `x' after #endif\n"
    );
    assert_eq!(
        log("#if 1.5\n#endif\n"),
        "0:1(5): error: invalid integer constant `1.5' in preprocessor expression\n"
    );
}

#[test]
fn error_pragma_null_and_unknown_directives() {
    assert_eq!(
        log("\n  #  error  this is  bad // why\n"),
        "0:2(3): error: this is bad\n"
    );
    assert_eq!(
        joined("#pragma optimize(off)\n#pragma debug(on)\n#pragma anything goes\nx"),
        "x"
    );
    assert_eq!(joined("#\n  # \t\nx"), "x");
    assert_eq!(
        log("#include <x>\n"),
        "0:1(2): error: unknown directive `#include'\n"
    );
    assert_eq!(log("# 12\n"), "0:1(3): error: unknown directive `#12'\n");
    // #error in a skipped group is skipped.
    assert_eq!(joined("#if 0\n#error no\n#endif\nx"), "x");
}

#[test]
fn extensions() {
    let src = "#version 450\n#extension GL_ARB_bindless_texture : require\n\
               #extension all : warn\n#extension GL_ARB_gpu_shader_int64 : enable\n\
               #extension GL_FOO_bar : disable\n";
    let out = ok(src);
    let exts: Vec<(&str, ExtBehavior, u32)> = out
        .extensions
        .iter()
        .map(|(n, b, s)| (n.as_str(), *b, s.line))
        .collect();
    assert_eq!(
        exts,
        [
            ("GL_ARB_bindless_texture", ExtBehavior::Require, 2),
            ("all", ExtBehavior::Warn, 3),
            ("GL_ARB_gpu_shader_int64", ExtBehavior::Enable, 4),
            ("GL_FOO_bar", ExtBehavior::Disable, 5),
        ]
    );
    assert!(out.warnings.is_empty());
    let out = ok("#extension GL_FOO_bar : enable\n#extension GL_FOO_baz : warn\n");
    assert_eq!(
        render_log(&out.warnings),
        "0:1(12): warning: extension `GL_FOO_bar' unsupported\n\
         0:2(12): warning: extension `GL_FOO_baz' unsupported\n"
    );
    assert_eq!(
        log("#extension GL_FOO_bar : require\n"),
        "0:1(12): error: extension `GL_FOO_bar' unsupported\n"
    );
    assert_eq!(
        log("#extension all : require\n"),
        "0:1(18): error: extension `all' cannot have `require' behavior\n"
    );
    assert_eq!(
        log("#extension all : enable\n"),
        "0:1(18): error: extension `all' cannot have `enable' behavior\n"
    );
    assert_eq!(
        log("#extension GL_ARB_bindless_texture : maybe\n"),
        "0:1(38): error: unknown extension behavior `maybe'\n"
    );
    assert_eq!(
        log("#extension GL_ARB_bindless_texture\n"),
        "0:1(2): error: #extension needs the form `#extension name : behavior'\n"
    );
}

#[test]
fn line_directive() {
    let out = ok("a\n#line 10\nb\nc __LINE__\n#line 20 3\nd __FILE__");
    let spans: Vec<(String, Span)> = out.tokens.into_iter().map(|t| (t.text, t.span)).collect();
    assert_eq!(
        spans,
        [
            ("a".to_string(), span(0, 1, 1)),
            ("b".to_string(), span(0, 10, 1)),
            ("c".to_string(), span(0, 11, 1)),
            ("11".to_string(), span(0, 11, 3)),
            ("d".to_string(), span(3, 20, 1)),
            ("3".to_string(), span(3, 20, 3)),
        ]
    );
    // Expressions after macro expansion, and errors reported at the new place.
    assert_eq!(
        log("#define BASE 100\n#line BASE + 1 2 * 2\n#error here\n"),
        "4:101(1): error: here\n"
    );
    assert_eq!(log("#line\n"), "0:1(2): error: #line needs a line number\n");
    assert_eq!(
        log("#line -1\n"),
        "0:1(2): error: invalid line number -1 in #line\n"
    );
    assert_eq!(
        log("#line 1 2 3\n"),
        "0:1(11): error: unexpected tokens at the end of #line\n"
    );
    // A #line inside a continued directive counts from the next physical line.
    assert_eq!(log("#line \\\n 7\n#error x\n"), "0:7(1): error: x\n");
}

#[test]
fn invalid_characters_in_text() {
    assert_eq!(log("a $ b"), "0:1(3): error: invalid character `$'\n");
    assert_eq!(log("a\n  \\ b"), "0:2(3): error: invalid character `\\'\n");
    assert_eq!(log("x = é;"), "0:1(5): error: invalid character `é'\n");
    assert_eq!(log("x\0"), "0:1(2): error: invalid character `\\u{0}'\n");
    assert_eq!(
        log("a # b"),
        "0:1(3): error: unexpected `#' outside a directive\n"
    );
    // Fine inside comments and skipped groups.
    assert_eq!(joined("a // é $ \0\n/* ` */b\n#if 0\n$ é\n#endif"), "a b");
}

#[test]
fn several_errors_are_all_reported_in_order() {
    let l = log("#error one\n#if X\n#endif\n#error two\n");
    assert_eq!(
        l,
        "0:1(1): error: one\n\
         0:2(5): error: undefined identifier `X' in preprocessor expression\n\
         0:4(1): error: two\n"
    );
}

#[test]
fn garbage_stops_after_too_many_errors() {
    let l = log(&"$".repeat(100_000));
    assert_eq!(l.lines().count(), 101);
    assert!(
        l.ends_with("0:1(101): error: too many errors, preprocessing stopped\n"),
        "{l}"
    );
}

#[test]
fn macro_bombs_end_in_an_error() {
    // Exponential growth: 2^40 tokens.
    let mut src = String::from("#define a0 x x\n");
    for i in 1..=40 {
        src.push_str(&format!("#define a{i} a{} a{}\n", i - 1, i - 1));
    }
    src.push_str("a40\n");
    let l = log(&src);
    assert!(l.ends_with("error: macro expansion too deep\n"), "{l}");
    assert_eq!(l.lines().count(), 1);
    // The same in #if.
    let l = log(&format!("{}#if a40\n#endif\n", &src[..src.len() - 4]));
    assert!(l.contains("error: macro expansion too deep\n"), "{l}");
    // Deeply nested calls.
    let src = format!(
        "#define F(x) x\n{}1{}",
        "F(".repeat(10_000),
        ")".repeat(10_000)
    );
    let l = log(&src);
    assert!(
        l.contains("error: macro expansion too deep: macros nest more than"),
        "{l}"
    );
    // Unbalanced parentheses and a deep #if do not blow the stack either: at and past the
    // limits, on a compiler thread (the stack the limits are sized for; a GL compile runs
    // there).
    crate::jit::run_on_compiler_thread(|| {
        let src = format!("#define F(x) x\nF{}", "(".repeat(100_000));
        assert!(log(&src).contains("unterminated argument list"));
        let limit = "#if expression nesting limit";
        let src = format!("#if {}1\n#endif", "(".repeat(100_000));
        assert!(log(&src).contains(limit));
        let n = MAX_PP_EXPRESSION_NESTING as usize;
        let src = format!("#if {}1{}\nyes\n#endif", "(".repeat(n), ")".repeat(n));
        assert_eq!(joined(&src), "yes");
        let src = format!("#if {}1{}\n#endif", "(".repeat(n + 1), ")".repeat(n + 1));
        assert!(log(&src).contains(limit));
        let src = format!("#if {}1\nyes\n#endif", "- ".repeat(n));
        assert_eq!(joined(&src), "yes");
        let src = format!("#if {}1\n#endif", "- ".repeat(n + 1));
        assert!(log(&src).contains(limit));
        let src = "#if 1\n".repeat(100_000);
        assert!(log(&src).contains("unterminated #if"));
        // `#if` groups have no limit: they are a list, not recursion.
        let src = format!(
            "{}yes\n{}",
            "#if 1\n".repeat(100_000),
            "#endif\n".repeat(100_000)
        );
        assert_eq!(joined(&src), "yes");
        // Macro calls nested in arguments: at the limit and one past.
        let m = MAX_MACRO_NESTING as usize;
        let src = format!("#define F(x) x\n{}1{}", "F(".repeat(m), ")".repeat(m));
        assert_eq!(joined(&src), "1");
        let src = format!(
            "#define F(x) x\n{}1{}",
            "F(".repeat(m + 1),
            ")".repeat(m + 1)
        );
        assert!(log(&src).contains("macro nesting limit"), "{}", log(&src));
    });
}

mod props {
    use super::*;
    use proptest::prelude::*;

    const PIECES: [&str; 40] = [
        "#define ",
        "#undef ",
        "#if ",
        "#ifdef ",
        "#ifndef ",
        "#elif ",
        "#else",
        "#endif",
        "#error ",
        "#pragma ",
        "#extension ",
        "#version ",
        "#line ",
        "#",
        "defined",
        "(",
        ")",
        ",",
        "##",
        "\\",
        "\n",
        "\r\n",
        " ",
        "/*",
        "*/",
        "//",
        "A",
        "B",
        "F",
        "F(",
        "x",
        "1",
        "0x1Fu",
        "1.0e-5",
        "__LINE__",
        "GL_ES",
        "/",
        "%",
        "?",
        ":",
    ];

    proptest! {
        #[test]
        fn random_strings_never_panic(s in "[#a-zA-Z0-9_()\\\\/*\n\r \t,.+\\-?:!<>=&|^~%\"'$\u{0}é]{0,200}") {
            let _ = preprocess(&s);
        }

        #[test]
        fn random_token_soups_never_panic(idx in proptest::collection::vec(0usize..PIECES.len(), 0..120)) {
            let mut s = String::new();
            for i in idx {
                s.push_str(PIECES[i]);
            }
            let _ = preprocess(&s);
        }

        #[test]
        fn macro_soups_never_panic(
            defs in proptest::collection::vec((0usize..4, proptest::collection::vec(0usize..PIECES.len(), 0..12)), 0..8),
            text in proptest::collection::vec(0usize..PIECES.len(), 0..40),
        ) {
            let names = ["A", "B", "F(x)", "G(x, y)"];
            let mut s = String::new();
            for (n, body) in defs {
                s.push_str("#define ");
                s.push_str(names[n]);
                s.push(' ');
                for i in body {
                    if PIECES[i].contains('\n') || PIECES[i] == "\\" {
                        continue;
                    }
                    s.push_str(PIECES[i]);
                    s.push(' ');
                }
                s.push('\n');
            }
            for i in text {
                s.push_str(PIECES[i]);
            }
            let _ = preprocess(&s);
        }
    }
}

#[test]
fn a_realistic_bindless_shader() {
    let src = "\u{feff}// A fragment shader as applications write them.\r\n\
        #version 450 core\r\n\
        #extension GL_ARB_bindless_texture : require\r\n\
        #extension GL_ARB_gpu_shader_int64 : enable\r\n\
        \r\n\
        #define NUM_LIGHTS 4\r\n\
        #define SATURATE(x) clamp((x), 0.0, 1.0)\r\n\
        #if defined(GL_ARB_bindless_texture) && NUM_LIGHTS > 2\r\n\
        layout(bindless_sampler) uniform sampler2D tex;\r\n\
        #else\r\n\
        #error bindless needed\r\n\
        #endif\r\n\
        /* multi-line\r\n\
           comment */\r\n\
        in vec2 uv; out vec4 color;\r\n\
        void main() {\r\n\
            float l = 0.0;\r\n\
            for (int i = 0; i < NUM_LIGHTS; ++i) l += SATURATE(float(i) * .25e1);\r\n\
            color = texture(tex, uv) * l; // done\r\n\
        }\r\n";
    let out = ok(src);
    assert_eq!((out.version, out.profile), (450, Profile::Core));
    assert_eq!(out.extensions.len(), 2);
    assert!(out.warnings.is_empty());
    let text = out
        .tokens
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.starts_with("layout ( bindless_sampler ) uniform sampler2D tex ;"));
    assert!(text.contains("i < 4 ; ++ i ) l += clamp ( ( float ( i ) * .25e1 ) , 0.0 , 1.0 ) ;"));
    let color = out
        .tokens
        .iter()
        .filter(|t| t.text == "color")
        .nth(1)
        .unwrap();
    assert_eq!(color.span, span(0, 19, 1));
    let tex = out.tokens.iter().find(|t| t.text == "tex").unwrap();
    assert_eq!(tex.span, span(0, 9, 44));
}
