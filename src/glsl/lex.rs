//! The lexer: turns pp-tokens into parser tokens — keywords (by `#version` and enabled
//! extensions), identifiers, literals with their suffixes, punctuation (GLSL 4.60 §3.6–3.7).
//! Owns literal parsing and the keyword/reserved-word tables; not the preprocessor.

use super::diag::{Diagnostic, Span};
use super::preprocess::{PpKind, PpToken, Profile};

/// A token for the parser.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// A keyword valid in this version (type names, qualifiers, statements).
    Keyword(String),
    Int(i32),
    Uint(u32),
    Uint64(u64),
    /// `1.5lf` (GLSL 4.00 / ARB_gpu_shader_fp64).
    Double(f64),
    Float(f32),
    Bool(bool),
    Punct(String),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Keywords of GLSL 1.10 (GLSL 1.10 §3.6).
const KW_110: &[&str] = &[
    "attribute",
    "const",
    "uniform",
    "varying",
    "break",
    "continue",
    "do",
    "for",
    "while",
    "if",
    "else",
    "in",
    "out",
    "inout",
    "float",
    "int",
    "void",
    "bool",
    "true",
    "false",
    "discard",
    "return",
    "mat2",
    "mat3",
    "mat4",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "bvec2",
    "bvec3",
    "bvec4",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCube",
    "sampler1DShadow",
    "sampler2DShadow",
    "struct",
];

/// Added in GLSL 1.20.
const KW_120: &[&str] = &[
    "invariant",
    "centroid",
    "mat2x2",
    "mat2x3",
    "mat2x4",
    "mat3x2",
    "mat3x3",
    "mat3x4",
    "mat4x2",
    "mat4x3",
    "mat4x4",
];

/// Added in GLSL 1.30.
const KW_130: &[&str] = &[
    "uint",
    "uvec2",
    "uvec3",
    "uvec4",
    "switch",
    "case",
    "default",
    "flat",
    "smooth",
    "noperspective",
    "lowp",
    "mediump",
    "highp",
    "precision",
    "isampler2D",
    "usampler2D",
    "sampler2DArray",
    "isampler2DArray",
    "usampler2DArray",
    "sampler2DArrayShadow",
    "samplerCubeShadow",
    "isamplerCube",
    "usamplerCube",
    "isampler3D",
    "usampler3D",
    "isampler1D",
    "usampler1D",
    "sampler1DArray",
    "isampler1DArray",
    "usampler1DArray",
    "sampler1DArrayShadow",
];

/// Added in GLSL 1.40 / 1.50 / 4.00 / 4.20 / 4.30.
const KW_140: &[&str] = &[
    "layout",
    "samplerBuffer",
    "isamplerBuffer",
    "usamplerBuffer",
    "sampler2DRect",
    "isampler2DRect",
    "usampler2DRect",
    "sampler2DRectShadow",
];
/// Added in GLSL 1.50 (ARB_texture_multisample's sampler types).
const KW_150: &[&str] = &[
    "sampler2DMS",
    "isampler2DMS",
    "usampler2DMS",
    "sampler2DMSArray",
    "isampler2DMSArray",
    "usampler2DMSArray",
];
const KW_400: &[&str] = &[
    "samplerCubeArray",
    "isamplerCubeArray",
    "usamplerCubeArray",
    "samplerCubeArrayShadow",
    "double",
    "dvec2",
    "dvec3",
    "dvec4",
    "dmat2",
    "dmat3",
    "dmat4",
    "dmat2x2",
    "dmat2x3",
    "dmat2x4",
    "dmat3x2",
    "dmat3x3",
    "dmat3x4",
    "dmat4x2",
    "dmat4x3",
    "dmat4x4",
    "subroutine",
    "patch",
    "sample",
];
const KW_420: &[&str] = &["coherent", "volatile", "restrict", "readonly", "writeonly"];
const KW_430: &[&str] = &["buffer", "shared"];
const KW_400_PRECISE: &str = "precise";

/// Words reserved for future use: using one is an error (GLSL 4.60 §3.6).
const RESERVED: &[&str] = &[
    "common",
    "partition",
    "active",
    "asm",
    "class",
    "union",
    "enum",
    "typedef",
    "template",
    "this",
    "resource",
    "goto",
    "inline",
    "noinline",
    "public",
    "static",
    "extern",
    "external",
    "interface",
    "long",
    "short",
    "half",
    "fixed",
    "unsigned",
    "superp",
    "input",
    "output",
    "hvec2",
    "hvec3",
    "hvec4",
    "fvec2",
    "fvec3",
    "fvec4",
    "sampler3DRect",
    "filter",
    "sizeof",
    "cast",
    "namespace",
    "using",
];

/// Which words are keywords for a given version, profile and extension set.
pub struct KeywordSet {
    pub version: u32,
    pub int64: bool,
    /// The double types below GLSL 4.00: GL_ARB_gpu_shader_fp64 is enabled.
    pub fp64: bool,
    /// `layout` below GLSL 1.40: an extension that brings layout qualifiers is enabled
    /// (ARB_explicit_attrib_location, ARB_separate_shader_objects, ARB_uniform_buffer_object,
    /// ARB_explicit_uniform_location, ARB_shading_language_420pack, ARB_compute_shader), as
    /// Mesa reads it.
    pub layout: bool,
    /// The samplerCubeArray types below GLSL 4.00: GL_ARB_texture_cube_map_array is enabled.
    pub cube_map_array: bool,
    /// The sampler2DRect types below GLSL 1.40: GL_ARB_texture_rectangle is enabled.
    pub rect: bool,
    /// `atomic_uint` below GLSL 4.20: GL_ARB_shader_atomic_counters is enabled.
    pub atomic_counters: bool,
    /// `patch` below GLSL 4.00: GL_ARB_tessellation_shader is enabled.
    pub patch: bool,
    /// `subroutine` below GLSL 4.00: GL_ARB_shader_subroutine is enabled.
    pub subroutine: bool,
    /// The image types and memory qualifiers below GLSL 4.20:
    /// GL_ARB_shader_image_load_store is enabled.
    pub image_load_store: bool,
    /// `buffer` and the memory qualifiers below GLSL 4.30 / 4.20:
    /// GL_ARB_shader_storage_buffer_object is enabled.
    pub storage_buffer: bool,
    /// `shared` below GLSL 4.30: GL_ARB_compute_shader is enabled.
    pub compute: bool,
}

/// GL_ARB_texture_cube_map_array's sampler types (keywords of GLSL 4.00).
const CUBE_MAP_ARRAY_WORDS: &[&str] = &[
    "samplerCubeArray",
    "isamplerCubeArray",
    "usamplerCubeArray",
    "samplerCubeArrayShadow",
];

impl KeywordSet {
    fn is_keyword(&self, w: &str) -> bool {
        let v = self.version;
        if KW_110.contains(&w) {
            return true;
        }
        if v >= 120 && KW_120.contains(&w) {
            return true;
        }
        if v >= 130 && KW_130.contains(&w) {
            return true;
        }
        if v >= 140 && KW_140.contains(&w) {
            return true;
        }
        if self.layout && w == "layout" {
            return true;
        }
        if self.cube_map_array && CUBE_MAP_ARRAY_WORDS.contains(&w) {
            return true;
        }
        // ARB_texture_rectangle (GLSL 1.10) has sampler2DRect and sampler2DRectShadow.
        if self.rect && matches!(w, "sampler2DRect" | "sampler2DRectShadow") {
            return true;
        }
        if self.patch && w == "patch" {
            return true;
        }
        if self.subroutine && w == "subroutine" {
            return true;
        }
        if v >= 150 && KW_150.contains(&w) {
            return true;
        }
        if v >= 400 && (KW_400.contains(&w) || w == KW_400_PRECISE) {
            return true;
        }
        if self.fp64 && (w == "double" || w.starts_with("dvec") || w.starts_with("dmat")) {
            return KW_400.contains(&w);
        }
        if (v >= 420 || self.image_load_store)
            && (KW_420.contains(&w) || crate::ir::ImageType::from_name(w).is_some())
        {
            return true;
        }
        // GL_ARB_shader_storage_buffer_object brings the memory qualifiers for buffer
        // variables, GL_ARB_compute_shader `shared`.
        if self.storage_buffer && (w == "buffer" || KW_420.contains(&w)) {
            return true;
        }
        if self.compute && w == "shared" {
            return true;
        }
        if (v >= 420 || self.atomic_counters) && w == "atomic_uint" {
            return true;
        }
        if v >= 430 && KW_430.contains(&w) {
            return true;
        }
        if self.int64
            && matches!(
                w,
                "uint64_t"
                    | "int64_t"
                    | "u64vec2"
                    | "u64vec3"
                    | "u64vec4"
                    | "i64vec2"
                    | "i64vec3"
                    | "i64vec4"
            )
        {
            return true;
        }
        false
    }
}

/// Lexes pp-tokens; errors are pushed to `diags`, offending tokens are dropped.
pub fn lex(
    pp: &[PpToken],
    version: u32,
    _profile: Profile,
    int64: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Token> {
    let kw = KeywordSet {
        version,
        int64,
        fp64: false,
        layout: false,
        cube_map_array: false,
        rect: false,
        atomic_counters: false,
        patch: false,
        subroutine: false,
        image_load_store: false,
        storage_buffer: false,
        compute: false,
    };
    lex_with(pp, &kw, diags)
}

/// [`lex`] with the keyword set spelled out (the extensions a unit enables).
pub fn lex_with(pp: &[PpToken], kw: &KeywordSet, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let mut out = Vec::with_capacity(pp.len() + 1);
    for t in pp {
        let tok = match t.kind {
            PpKind::Ident => {
                let w = t.text.as_str();
                if w == "true" || w == "false" {
                    Tok::Bool(w == "true")
                } else if kw.is_keyword(w) {
                    Tok::Keyword(w.to_string())
                } else if RESERVED.contains(&w) || (kw.version >= 130 && w == "lowp_") {
                    diags.push(Diagnostic::error(
                        t.span,
                        format!("illegal use of reserved word `{w}'"),
                    ));
                    continue;
                } else {
                    Tok::Ident(w.to_string())
                }
            }
            PpKind::Number => match parse_number(&t.text, kw.int64) {
                Ok(tok) => tok,
                Err(msg) => {
                    diags.push(Diagnostic::error(t.span, msg));
                    continue;
                }
            },
            PpKind::Punct => Tok::Punct(t.text.clone()),
        };
        out.push(Token { tok, span: t.span });
    }
    let end = pp.last().map(|t| t.span).unwrap_or(Span {
        source: 0,
        line: 1,
        column: 1,
    });
    out.push(Token {
        tok: Tok::Eof,
        span: end,
    });
    out
}

/// Parses a pp-number into a literal token (GLSL 4.60 §4.1.3, §4.1.4).
pub fn parse_number(text: &str, int64: bool) -> Result<Tok, String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f'));
    if is_float {
        if let Some(body) = lower.strip_suffix("lf") {
            // Parsed from the text as a double, not through f32.
            if body.is_empty()
                || !body
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
            {
                return Err(format!("invalid floating-point literal `{text}'"));
            }
            return body
                .parse::<f64>()
                .map(Tok::Double)
                .map_err(|_| format!("invalid floating-point literal `{text}'"));
        }
        let body = lower.strip_suffix('f').unwrap_or(&lower);
        if body.is_empty()
            || !body
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
        {
            return Err(format!("invalid floating-point literal `{text}'"));
        }
        return body
            .parse::<f32>()
            .map(Tok::Float)
            .map_err(|_| format!("invalid floating-point literal `{text}'"));
    }
    let (digits, suffix) = {
        let end = lower
            .char_indices()
            .rev()
            .take_while(|(_, c)| *c == 'u' || *c == 'l')
            .last()
            .map(|(i, _)| i)
            .unwrap_or(lower.len());
        (&lower[..end], &lower[end..])
    };
    let (radix, ds) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if ds.is_empty() {
        return Err(format!("invalid integer literal `{text}'"));
    }
    let v = u64::from_str_radix(ds, radix).map_err(|_| {
        if ds.chars().all(|c| c.is_ascii_hexdigit()) {
            format!("integer literal `{text}' is too large")
        } else {
            format!("invalid integer literal `{text}'")
        }
    })?;
    match suffix {
        "" | "u" => {
            if v > u32::MAX as u64 {
                return Err(format!("integer literal `{text}' is too large"));
            }
            if suffix == "u" {
                Ok(Tok::Uint(v as u32))
            } else {
                Ok(Tok::Int(v as u32 as i32))
            }
        }
        "ul" if int64 => Ok(Tok::Uint64(v)),
        "l" if int64 => Err("64-bit signed integers are not supported yet".to_string()),
        _ => Err(format!("invalid integer literal suffix in `{text}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("12", false), Ok(Tok::Int(12)));
        assert_eq!(parse_number("0x1F", false), Ok(Tok::Int(31)));
        assert_eq!(parse_number("017", false), Ok(Tok::Int(15)));
        assert_eq!(parse_number("3u", false), Ok(Tok::Uint(3)));
        assert_eq!(parse_number("4294967295", false), Ok(Tok::Int(-1)));
        assert!(parse_number("4294967296", false).is_err());
        assert_eq!(parse_number("1.5", false), Ok(Tok::Float(1.5)));
        assert_eq!(parse_number("1e3", false), Ok(Tok::Float(1000.0)));
        assert_eq!(parse_number(".5f", false), Ok(Tok::Float(0.5)));
        assert_eq!(parse_number("7ul", true), Ok(Tok::Uint64(7)));
        assert!(parse_number("7ul", false).is_err());
        assert_eq!(parse_number("1.5LF", false), Ok(Tok::Double(1.5)));
        // Parsed as a double, not through f32.
        assert_eq!(parse_number("0.1lf", false), Ok(Tok::Double(0.1)));
        assert!(parse_number("1.0xlf", false).is_err());
        assert!(parse_number("09", false).is_err());
    }

    #[test]
    fn keywords_by_version() {
        let k = KeywordSet {
            version: 110,
            int64: false,
            fp64: false,
            layout: false,
            cube_map_array: false,
            rect: false,
            atomic_counters: false,
            patch: false,
            subroutine: false,
            image_load_store: false,
            storage_buffer: false,
            compute: false,
        };
        assert!(!k.is_keyword("uint"));
        assert!(k.is_keyword("vec4"));
        assert!(!k.is_keyword("layout"));
        let k = KeywordSet {
            version: 330,
            int64: false,
            fp64: false,
            layout: false,
            cube_map_array: false,
            rect: false,
            atomic_counters: false,
            patch: false,
            subroutine: false,
            image_load_store: false,
            storage_buffer: false,
            compute: false,
        };
        assert!(k.is_keyword("uint") && k.is_keyword("layout"));
        let k = KeywordSet {
            version: 130,
            int64: false,
            fp64: false,
            layout: true,
            cube_map_array: false,
            rect: false,
            atomic_counters: false,
            patch: false,
            subroutine: false,
            image_load_store: false,
            storage_buffer: false,
            compute: false,
        };
        assert!(k.is_keyword("layout") && !k.is_keyword("samplerBuffer"));
        assert!(!k.is_keyword("samplerCubeArray") && !k.is_keyword("sampler2DRect"));
        let k = KeywordSet {
            version: 130,
            int64: false,
            fp64: false,
            layout: false,
            cube_map_array: true,
            rect: true,
            atomic_counters: false,
            patch: false,
            subroutine: false,
            image_load_store: false,
            storage_buffer: false,
            compute: false,
        };
        assert!(k.is_keyword("isamplerCubeArray") && k.is_keyword("sampler2DRectShadow"));
        assert!(!k.is_keyword("isampler2DRect") && !k.is_keyword("dvec2"));
    }
}
