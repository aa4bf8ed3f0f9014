//! The GLSL front end, written by us (DESIGN.md §3): preprocess → lex → parse → check and
//! lower to [`crate::ir::Module`]. Diagnostics use the GL info-log form; nothing here panics
//! on any input.
//!
//! | file | owns |
//! |---|---|
//! | `diag.rs` | spans, diagnostics, info-log rendering |
//! | `limits.rs` | the nesting limits, stated once (what nests how deep) |
//! | `preprocess.rs`, `preprocess/` | the preprocessor: directives, macros, `#if` expressions, pp-tokens |
//! | `lex.rs` | pp-tokens → keywords (by version), identifiers, literals |
//! | `ast.rs` | the syntax tree with spans |
//! | `parse.rs` | recursive-descent parser |
//! | `types.rs` | GLSL types, tight and std140 layouts |
//! | `builtin_constants.rs` | the built-in constants (`gl_MaxDrawBuffers`, …), each with the GL limit it equals |
//! | `consts.rs` | constant-expression folding (array sizes, case labels, offsets) |
//! | `lower.rs` | checks + lowering: the context, scopes, types, the translation unit |
//! | `interface.rs` | globals, uniforms, std140 blocks, inputs/outputs, built-in variables |
//! | `storage.rs` | shader storage blocks (std430/std140, runtime-sized arrays, `length()`) and the atomic built-ins |
//! | `depth_range.rs` | the built-in uniform `gl_DepthRange` (viewport 0's depth range, written by the API at each draw) |
//! | `atomic_counter.rs` | `atomic_uint` counters: declarations, default offsets, where they may not appear, the counter built-ins |
//! | `compute.rs` | the compute stage: local size, compute built-ins, `shared` variables, barriers |
//! | `geometry.rs` | the geometry stage: input/output layouts, sized input arrays, `gl_in[]` and the primitive built-ins, EmitVertex/EndPrimitive and their streams |
//! | `tess.rs` | the tessellation stages: layouts, per-vertex and `patch` inputs/outputs, their built-ins, the control shader's write and barrier rules |
//! | `xfb.rs` | transform feedback layout qualifiers of outputs (`xfb_buffer`, `xfb_offset`, `xfb_stride`) |
//! | `per_vertex.rs` | redeclarations of the built-in `gl_PerVertex` block (`out gl_PerVertex { ... };`, `in gl_PerVertex { ... } gl_in[];`) |
//! | `subroutine.rs` | subroutine types, functions and uniforms; calls through a subroutine uniform |
//! | `stmt.rs` | statements, function declarations and inlining |
//! | `place.rs` | storage places: indexing, members, swizzles, reads and writes |
//! | `expr.rs` | operators, conversions, constructors, user calls (inlined) |
//! | `builtins.rs` | built-in functions and texture lookups |
//! | `double.rs` | doubles (GLSL 4.00, ARB_gpu_shader_fp64): literals, conversions, operators, constructors, built-ins over word pairs |
//! | `verify.rs` | structural check of emitted IR (kinds, labels), used by the tests |
//!
//! Checking and lowering are one pass: each expression is typed as it is lowered, so the
//! two can never disagree about a type.
//!
//! [`compile`] checks one compilation unit; [`compile_units`] lowers the units of a stage
//! together at link time (one shared global scope, per-unit `#version`/`#extension`).

#![forbid(unsafe_code)]

pub mod ast;
mod atomic_counter;
pub mod builtin_constants;
mod builtins;
mod compute;
pub mod consts;
pub mod depth_range;
pub mod diag;
mod double;
mod expr;
mod geometry;
mod image;
mod interface;
pub mod lex;
pub mod limits;
mod lower;
pub mod parse;
mod per_vertex;
mod place;
pub mod preprocess;
mod stmt;
mod storage;
mod subroutine;
mod tess;
pub mod types;
pub mod verify;
mod xfb;

#[cfg(test)]
mod tests;

pub use diag::{Diagnostic, Severity, Span};

use crate::ir;

/// The result of compiling one shader: the module when it compiled, and the info log
/// (errors and warnings) either way.
///
/// A unit can compile without being a whole stage (GLSL 4.60 §2.1): one that calls a
/// function it only declares, or has no `main`, has `compiled` true and no module; the
/// link combines it with the other units of its stage ([`compile_units`]).
#[derive(Clone, Debug)]
pub struct CompileOutput {
    /// The stage's module, when this unit is the whole stage.
    pub module: Option<ir::Module>,
    pub info_log: String,
    /// GL_COMPILE_STATUS: the unit has no error.
    pub compiled: bool,
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
        compiled: !has_error(&diags),
        info_log: diag::render_log(&diags),
    }
}

/// Lowers the compilation units of one stage together, as linking does (GLSL 4.60 §2.1,
/// §4.3): each unit is preprocessed and parsed on its own, with its own `#version` and
/// `#extension`s; the units share one global scope, where a global declared in several
/// units must have the same type (and storage, and initializer); each function is defined
/// at most once across the units, every called function somewhere, `main` exactly once.
/// `layout(bindless_sampler) uniform;` and `layout(bound_sampler) uniform;` both at global
/// scope is an error (ARB_bindless_texture). Errors are link errors: the caller puts the
/// log in the program's info log. One complete unit gives the same module as [`compile`].
pub fn compile_units(stage: ir::Stage, sources: &[&str]) -> CompileOutput {
    let (module, diags) = compile_units_diags(stage, sources);
    CompileOutput {
        compiled: module.is_some(),
        module,
        info_log: diag::render_log(&diags),
    }
}

/// Where errors about a whole unit or stage point: its first character.
const FIRST: Span = Span {
    source: 0,
    line: 1,
    column: 1,
};

fn has_error(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// Like [`compile`], with the diagnostics as values.
///
/// Runs on a compiler thread (`jit::run_on_compiler_thread`), whose stack the nesting
/// limits (`limits`) are sized for, whatever the caller's stack.
pub fn compile_diags(stage: ir::Stage, source: &str) -> (Option<ir::Module>, Vec<Diagnostic>) {
    if !crate::jit::on_compiler_thread() {
        let source = source.to_owned();
        return crate::jit::run_on_compiler_thread(move || compile_diags(stage, &source));
    }
    let mut diags = Vec::new();
    let Some((flags, unit, lex_diags)) = parse_unit(stage, source, None, &mut diags) else {
        return (None, diags);
    };
    let mut lw = lower::Lowerer::new(stage, flags.version, flags.profile);
    lw.diags = lex_diags;
    lw.units.push(flags);
    lw.enter_unit(0);
    lw.lower_unit(unit);
    let (m, mut d) = lw.finish();
    diags.append(&mut d);
    (m, diags)
}

/// Like [`compile_units`], with the diagnostics as values. Runs on a compiler thread, as
/// [`compile_diags`] does.
pub fn compile_units_diags(
    stage: ir::Stage,
    sources: &[&str],
) -> (Option<ir::Module>, Vec<Diagnostic>) {
    if !crate::jit::on_compiler_thread() {
        let owned: Vec<String> = sources.iter().map(|s| s.to_string()).collect();
        return crate::jit::run_on_compiler_thread(move || {
            let sources: Vec<&str> = owned.iter().map(|s| s.as_str()).collect();
            compile_units_diags(stage, &sources)
        });
    }
    let mut diags = Vec::new();
    let mut flags = Vec::new();
    let mut units = Vec::new();
    let mut lex_diags = Vec::new();
    // With several units, spans name the unit where GL logs name the source string
    // (`1:3(7): error: ...` is unit 1, line 3), so link errors say which shader they are in.
    let several = sources.len() > 1;
    for (k, src) in sources.iter().enumerate() {
        let unit_no = several.then_some(k as u32);
        if let Some((f, u, mut d)) = parse_unit(stage, src, unit_no, &mut diags) {
            flags.push(f);
            units.push(u);
            lex_diags.append(&mut d);
        }
    }
    if has_error(&diags) || units.is_empty() {
        if units.is_empty() && !has_error(&diags) {
            diags.push(Diagnostic::error(
                FIRST,
                "no compilation unit for the stage".to_string(),
            ));
        }
        return (None, diags);
    }
    let mut lw = lower::Lowerer::new(stage, flags[0].version, flags[0].profile);
    lw.diags = lex_diags;
    lw.units = flags;
    lw.linking = true;
    lw.enter_unit(0);
    lw.lower_units(units);
    // ARB_bindless_texture, "Layout Qualifiers": "If both bindless_sampler and
    // bound_sampler ... are declared at global scope in any compilation unit, a link-time
    // error will be generated." (`ir::link` checks the two stages against each other.)
    if lw.global_bindless && lw.global_bound {
        lw.error(
            FIRST,
            "both `layout(bindless_sampler) uniform;' and `layout(bound_sampler) uniform;' are declared at global scope"
                .to_string(),
        );
    }
    let (m, mut d) = lw.finish();
    diags.append(&mut d);
    (m, diags)
}

/// One unit, preprocessed and parsed: its `#version`/`#extension` settings, its syntax
/// tree, and the lexer's warnings (they join the lowering's, sorted with them).
type ParsedUnit = (lower::UnitFlags, Vec<ast::External>, Vec<Diagnostic>);

/// Preprocesses, lexes and parses one unit; `None` (with the errors in `diags`) when it
/// does not parse. `unit_no`: the source number its tokens' spans get (several units).
fn parse_unit(
    stage: ir::Stage,
    source: &str,
    unit_no: Option<u32>,
    diags: &mut Vec<Diagnostic>,
) -> Option<ParsedUnit> {
    let pp = match preprocess::preprocess(source) {
        Ok(pp) => pp,
        Err(mut d) => {
            diags.append(&mut d);
            return None;
        }
    };
    diags.extend(pp.warnings.iter().cloned());
    let first = FIRST;
    if !VERSIONS.contains(&pp.version) {
        diags.push(Diagnostic::error(
            first,
            format!("GLSL {} is not supported", pp.version),
        ));
        return None;
    }
    if pp.profile == preprocess::Profile::Es {
        diags.push(Diagnostic::error(
            first,
            "GLSL ES is not supported".to_string(),
        ));
        return None;
    }
    let mut lw = lower::Lowerer::new(stage, pp.version, pp.profile);
    let (_, int64) = lw.set_extensions(&pp.extensions);
    let layout = pp.extensions.iter().any(|(name, beh, _)| {
        !matches!(beh, preprocess::ExtBehavior::Disable)
            && matches!(
                name.as_str(),
                "GL_ARB_explicit_attrib_location"
                    | "GL_ARB_separate_shader_objects"
                    | "GL_ARB_uniform_buffer_object"
                    | "GL_ARB_explicit_uniform_location"
                    | "GL_ARB_shading_language_420pack"
                    | "GL_ARB_compute_shader"
            )
    });
    // Only an extension the front end implements (`extensions::GLSL`) changes keywords.
    let enabled = |ext: &str| {
        crate::extensions::GLSL.contains(&ext)
            && pp.extensions.iter().any(|(name, beh, _)| {
                !matches!(beh, preprocess::ExtBehavior::Disable) && name == ext
            })
    };
    let kw = lex::KeywordSet {
        version: pp.version,
        int64,
        fp64: enabled("GL_ARB_gpu_shader_fp64"),
        layout,
        cube_map_array: enabled("GL_ARB_texture_cube_map_array"),
        rect: enabled("GL_ARB_texture_rectangle"),
        atomic_counters: enabled("GL_ARB_shader_atomic_counters"),
        patch: enabled("GL_ARB_tessellation_shader"),
        subroutine: enabled("GL_ARB_shader_subroutine"),
        image_load_store: enabled("GL_ARB_shader_image_load_store"),
        storage_buffer: enabled("GL_ARB_shader_storage_buffer_object"),
        compute: enabled("GL_ARB_compute_shader"),
    };
    let mut toks = lex::lex_with(&pp.tokens, &kw, &mut lw.diags);
    if let Some(k) = unit_no {
        for t in &mut toks {
            t.span.source = k;
        }
    }
    let multiple_layouts = pp.version >= 420 || enabled("GL_ARB_shading_language_420pack");
    let unit = match parse::Parser::new(&toks)
        .with_multiple_layouts(multiple_layouts)
        .parse_unit()
    {
        Ok(u) => u,
        Err(e) => {
            lw.diags.push(e);
            diags.append(&mut lw.diags);
            return None;
        }
    };
    if has_error(&lw.diags) {
        diags.append(&mut lw.diags);
        return None;
    }
    Some((lw.flags(), unit, std::mem::take(&mut lw.diags)))
}
