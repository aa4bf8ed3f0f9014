//! The GLSL must-compile / must-fail corpus (`conformance/glsl/`): each file is one named
//! test. A file's first lines hold its expectations: `// expect: ok`, or one
//! `// expect: 0:LINE(COL): error: message` line per diagnostic that must appear in the
//! info log (and then the shader must fail to compile), or one
//! `// expect-link: 0:LINE(COL): error: message` line per diagnostic of a unit that
//! compiles but does not link alone (GLSL 4.60 §2.1: no main, a function declared and
//! called but not defined). The stage comes from the extension.

use softgl::glsl::verify::verify_module;
use softgl::glsl::{compile, compile_units};
use softgl::ir::Stage;

fn check(file: &str, src: &str) {
    let stage = if file.ends_with(".vert") {
        Stage::Vertex
    } else {
        Stage::Fragment
    };
    let link_expects: Vec<&str> = src
        .lines()
        .map_while(|l| l.strip_prefix("// expect-link: "))
        .collect();
    if !link_expects.is_empty() {
        let out = compile(stage, src);
        assert!(
            out.compiled && out.module.is_none() && !out.info_log.contains("error"),
            "{file}: expected to compile as a unit that needs linking, info log:\n{}",
            out.info_log
        );
        let linked = compile_units(stage, &[src]);
        assert!(
            linked.module.is_none() && !linked.compiled,
            "{file}: expected not to link alone"
        );
        check_errors(file, &link_expects, &linked.info_log);
        return;
    }
    let expects: Vec<&str> = src
        .lines()
        .map_while(|l| l.strip_prefix("// expect: "))
        .collect();
    assert!(!expects.is_empty(), "{file}: no `// expect:` line");
    let out = compile(stage, src);
    if expects == ["ok"] {
        assert!(
            out.module.is_some() && !out.info_log.contains("error"),
            "{file}: expected to compile, info log:\n{}",
            out.info_log
        );
        if let Some(m) = &out.module {
            if let Err(e) = verify_module(m) {
                panic!("{file}: emitted IR is malformed: {e}");
            }
        }
        // A complete unit linked alone is the module it compiled to (the link's fast path
        // relies on it).
        let linked = compile_units(stage, &[src]);
        assert!(
            linked.module == out.module,
            "{file}: compile_units of the one unit differs from compile"
        );
        return;
    }
    assert!(
        out.module.is_none() && !out.compiled,
        "{file}: expected to fail, but it compiled (log:\n{})",
        out.info_log
    );
    check_errors(file, &expects, &out.info_log);
}

/// The log holds exactly these error lines (so cascades are caught too).
fn check_errors(file: &str, expects: &[&str], log: &str) {
    let errors = log.lines().filter(|l| l.contains(": error: ")).count();
    assert_eq!(
        errors,
        expects.len(),
        "{file}: expected {} errors, info log:\n{log}",
        expects.len(),
    );
    for e in expects {
        assert!(
            log.lines().any(|l| l == *e),
            "{file}: expected diagnostic\n  {e}\nnot in info log:\n{log}",
        );
    }
}

macro_rules! corpus {
    ($($name:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check($file, include_str!(concat!("../conformance/glsl/", $file)));
            }
        )*
        /// Every file in the folder is listed above, so none is silently skipped.
        #[test]
        fn every_corpus_file_is_listed() {
            let listed = [$($file),*];
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/glsl");
            for entry in std::fs::read_dir(dir).expect("conformance/glsl") {
                let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
                if name.ends_with(".vert") || name.ends_with(".frag") {
                    assert!(listed.contains(&name.as_str()), "{name} is not listed in tests/glsl_corpus.rs");
                }
            }
        }
    };
}

corpus! {
    err_block_binding_past_limit => "err_block_binding_past_limit.vert",
    err_sampler_binding_past_limit => "err_sampler_binding_past_limit.frag",
    err_array_size_not_const => "err_array_size_not_const.frag",
    err_assign_to_const => "err_assign_to_const.frag",
    err_assign_uniform => "err_assign_uniform.frag",
    err_legacy_texture_wrong_sampler => "err_legacy_texture_wrong_sampler.frag",
    ok_legacy_texture_lookups => "ok_legacy_texture_lookups.frag",
    err_attribute_core_vert => "err_attribute_core.vert",
    err_bindless_and_bound => "err_bindless_and_bound.frag",
    err_sampler_uniform_initializer => "err_sampler_uniform_initializer.frag",
    err_bindless_disabled => "err_bindless_disabled.frag",
    err_bindless_layout_without_ext => "err_bindless_layout_without_ext.frag",
    err_bindless_varying_not_flat => "err_bindless_varying_not_flat.frag",
    err_break_outside => "err_break_outside.frag",
    err_condition_not_bool => "err_condition_not_bool.frag",
    err_constructor_too_few => "err_constructor_too_few.frag",
    err_constructor_too_many => "err_constructor_too_many.frag",
    err_derivative_in_vertex_vert => "err_derivative_in_vertex.vert",
    err_discard_in_vertex_vert => "err_discard_in_vertex.vert",
    err_duplicate_case => "err_duplicate_case.frag",
    err_fragcolor_and_out => "err_fragcolor_and_out.frag",
    err_fragcolor_core_450 => "err_fragcolor_core_450.frag",
    err_fragcoord_layout_in_vertex_vert => "err_fragcoord_layout_in_vertex.vert",
    err_fragcoord_layout_not_fragcoord => "err_fragcoord_layout_not_fragcoord.frag",
    err_fragcoord_redeclared_after_use => "err_fragcoord_redeclared_after_use.frag",
    err_fragcoord_redeclared_mismatch => "err_fragcoord_redeclared_mismatch.frag",
    err_implicit_conversion_110 => "err_implicit_conversion_110.frag",
    err_int64_arith => "err_int64_arith.frag",
    err_int64_without_ext => "err_int64_without_ext.frag",
    err_int_to_uint_330 => "err_int_to_uint_330.frag",
    err_int_varying_not_flat => "err_int_varying_not_flat.frag",
    err_double_varying_not_flat => "err_double_varying_not_flat.frag",
    err_double_literal_330 => "err_double_literal_330.frag",
    err_location_before_330_vert => "err_location_before_330.vert",
    err_main_params => "err_main_params.frag",
    err_missing_main => "err_missing_main.frag",
    err_prototype_only => "err_prototype_only.frag",
    err_no_matching_overload => "err_no_matching_overload.frag",
    err_nonconst_case => "err_nonconst_case.frag",
    err_out_param_not_lvalue => "err_out_param_not_lvalue.frag",
    err_recursion => "err_recursion.frag",
    err_redeclared => "err_redeclared.frag",
    err_reserved_word => "err_reserved_word.frag",
    err_return_type => "err_return_type.frag",
    err_sampler_assign_core => "err_sampler_assign_core.frag",
    err_sampler_ctor_without_ext => "err_sampler_ctor_without_ext.frag",
    err_sampler_in_block_core => "err_sampler_in_block_core.frag",
    err_sampler_local_core => "err_sampler_local_core.frag",
    err_sampler_out_param_core => "err_sampler_out_param_core.frag",
    err_sampler_vertex_input_core_vert => "err_sampler_vertex_input_core.vert",
    err_struct_member => "err_struct_member.frag",
    err_switch_keyword_120 => "err_switch_keyword_120.frag",
    err_switch_type => "err_switch_type.frag",
    err_swizzle_mixed_sets => "err_swizzle_mixed_sets.frag",
    err_swizzle_repeated_lvalue => "err_swizzle_repeated_lvalue.frag",
    err_syntax => "err_syntax.frag",
    err_texture2d_core => "err_texture2d_core.frag",
    err_texture_offset_not_const => "err_texture_offset_not_const.frag",
    err_type_mismatch => "err_type_mismatch.frag",
    err_uint_in_110 => "err_uint_in_110.frag",
    err_undeclared => "err_undeclared.frag",
    err_unknown_function => "err_unknown_function.frag",
    err_varying_core_420_vert => "err_varying_core_420.vert",
    err_vector_index_out_of_range => "err_vector_index_out_of_range.frag",
    err_wrong_arg_builtin => "err_wrong_arg_builtin.frag",
    ok_arrays => "ok_arrays.frag",
    ok_bindless_global_layout => "ok_bindless_global_layout.frag",
    ok_bindless_out_param => "ok_bindless_out_param.frag",
    ok_bindless_uniforms => "ok_bindless_uniforms.frag",
    ok_bindless_vertex_input_vert => "ok_bindless_vertex_input.vert",
    ok_builtins_integer => "ok_builtins_integer.frag",
    ok_builtins_math => "ok_builtins_math.frag",
    ok_compat_profile => "ok_compat_profile.frag",
    ok_constructors => "ok_constructors.frag",
    ok_doubles => "ok_doubles.frag",
    ok_control_flow => "ok_control_flow.frag",
    ok_explicit_location_ext_vert => "ok_explicit_location_ext.vert",
    ok_frag_depth_outputs => "ok_frag_depth_outputs.frag",
    ok_fragcoord_layout_repeated => "ok_fragcoord_layout_repeated.frag",
    ok_fragcoord_redeclare => "ok_fragcoord_redeclare.frag",
    ok_functions => "ok_functions.frag",
    ok_globals_and_consts => "ok_globals_and_consts.frag",
    ok_initializer_list_and_aoa => "ok_initializer_list_and_aoa.frag",
    ok_int64_handles => "ok_int64_handles.frag",
    ok_int_to_uint_400 => "ok_int_to_uint_400.frag",
    ok_interface_blocks => "ok_interface_blocks.frag",
    ok_legacy_110 => "ok_legacy_110.frag",
    ok_legacy_120_vert => "ok_legacy_120.vert",
    ok_legacy_texture_named_uniform => "ok_legacy_texture_named_uniform.frag",
    ok_matrix_types_vert => "ok_matrix_types.vert",
    ok_operators => "ok_operators.frag",
    ok_structs => "ok_structs.frag",
    ok_swizzle_lvalue => "ok_swizzle_lvalue.frag",
    ok_texture => "ok_texture.frag",
    ok_uniform_block_vert => "ok_uniform_block.vert",
    ok_version_150_fragcolor => "ok_version_150_fragcolor.frag",
    ok_texture2d_330_core => "ok_texture2d_330_core.frag",
    ok_varying_attribute_150_vert => "ok_varying_attribute_150.vert",
    ok_vertex_locations_vert => "ok_vertex_locations.vert",
}
