//! The conformance corpus as tests: one named test per `conformance/scenes/*.shader_test`.
//! Each scene is rendered with 1 and with 2 rasterizer threads; it must PASS both times and
//! the two framebuffers must be bit-identical (DESIGN.md §6). SKIP counts as a pass only when
//! a fresh context really lacks what the scene's `[require]` section asks for. A failing
//! scene writes `<name>-actual.png` under Cargo's test temp dir and names its file.

use std::path::{Path, PathBuf};

use softgl::Context;
use softgl_cli::shader_test::png_out;
use softgl_cli::shader_test::run::{self, Outcome, RunOptions, RunResult};

fn scene_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../conformance/scenes")
        .join(format!("{name}.shader_test"))
}

fn write_actual(name: &str, threads: usize, result: &RunResult) -> String {
    if result.pixels.is_empty() {
        return String::from("(no image)");
    }
    let path =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{threads}threads-actual.png"));
    match png_out::write_rgba8_bottom_up(&path, result.width, result.height, &result.pixels) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(cannot write {}: {e})", path.display()),
    }
}

/// The scenes run on the context their `[require]` section asks for, as piglit's runs do
/// (README): softgl's honest version is below what the geometry-shader scenes need, so
/// every test claims 4.5 through the override before it makes a context. Every test of
/// this binary sets the same value, so the order they run in does not matter.
fn claim_gl_45() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::env::set_var("SOFTGL_GL_VERSION_OVERRIDE", "4.5"));
}

fn check_scene(name: &str) {
    claim_gl_45();
    let path = scene_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let script =
        softgl_cli::shader_test::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut results = Vec::new();
    for threads in [1, 2] {
        let opts = RunOptions {
            threads: Some(threads),
            ..RunOptions::default()
        };
        let result = run::run_script(&script, &opts);
        match &result.outcome {
            Outcome::Pass => {}
            Outcome::Skip(why) => {
                // A SKIP must be real: ask a fresh context of the kind the scene asks for
                // (none at all, even with 4.5 claimed, is a real reason too).
                let real = match Context::with_attribs(&run::context_attribs(&script), None) {
                    Ok(mut ctx) => run::unmet_requirement(&mut ctx, &script.requirements).is_some(),
                    Err(_) => true,
                };
                assert!(
                    real,
                    "{}: SKIP ({why}) although a fresh context meets every requirement",
                    path.display()
                );
                eprintln!("{}: SKIP ({why})", path.display());
                return;
            }
            Outcome::Fail(why) => {
                let png = write_actual(name, threads, &result);
                panic!(
                    "{}: FAIL with {threads} thread(s): {why}; image: {png}",
                    path.display()
                );
            }
        }
        results.push(result);
    }
    let (one, two) = (&results[0], &results[1]);
    if one.pixels != two.pixels {
        let first = one
            .pixels
            .chunks(4)
            .zip(two.pixels.chunks(4))
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let w = one.width as usize;
        let at = (first % w.max(1), first / w.max(1));
        let p1 = write_actual(name, 1, one);
        let p2 = write_actual(name, 2, two);
        panic!(
            "{}: 1 and 2 threads differ, first at pixel {at:?}: {:?} vs {:?} ({p1}, {p2})",
            path.display(),
            one.pixels.get(first * 4..first * 4 + 4),
            two.pixels.get(first * 4..first * 4 + 4),
        );
    }
}

macro_rules! scenes {
    ($($name:ident,)*) => {
        $(
            #[test]
            fn $name() {
                check_scene(stringify!($name));
            }
        )*
        const SCENES: &[&str] = &[$(stringify!($name)),*];
    };
}

scenes! {
    bindless_border_color,
    bindless_bound_and_bindless,
    bindless_flat_varying_per_primitive,
    bindless_global_layout,
    bindless_layout_conflict_across_stages,
    bindless_layout_conflict_link_error,
    bindless_mipmapped_handle,
    bindless_non_resident_zero,
    bindless_per_fragment_handles,
    bindless_residency_per_draw,
    bindless_sampler_function_param,
    bindless_single_layout_links,
    bindless_stale_handle,
    bindless_ubo_handle_array,
    bindless_ubo_handles,
    bindless_ubo_struct_uvec2_coord,
    bindless_ubo_uniform_handle,
    bindless_uint64_constructor,
    bindless_uniform_handle,
    bindless_uvec2_constructor,
    bindless_vertex_attrib,
    blend_add_one_one,
    blend_alpha,
    blend_constant_color,
    blend_dst_color,
    blend_func_separate,
    blend_min_max,
    blend_reverse_subtract,
    blend_src_alpha_saturate,
    blend_subtract,
    clip_distance,
    color_mask,
    control_flow,
    control_flow_divergent,
    cull_back,
    cull_front,
    cull_front_and_back,
    cull_front_face_cw,
    depth_func_always,
    depth_func_equal,
    depth_func_gequal,
    depth_func_greater,
    depth_func_lequal,
    depth_func_less,
    depth_func_never,
    depth_func_notequal,
    depth_mask,
    derivatives,
    discard,
    fragcoord,
    fragcoord_layout,
    fragcoord_origin_upper_left,
    fragcoord_pixel_center_integer,
    front_facing,
    geometry_layer_viewport_read,
    geometry_per_vertex_blocks,
    geometry_points_to_quads,
    instanced_arrays,
    instanced_rect,
    interp_flat,
    interp_flat_integer,
    interp_flat_provoking_first,
    interp_perspective,
    interp_smooth,
    prim_lines,
    prim_point_coord,
    prim_points,
    scissor,
    scissor_clear,
    stencil_two_pass_front_back,
    strip_and_fan,
    tess_isolines_default_levels,
    tess_patch_colours_barrier,
    tex_base_max_level,
    tex_format_srgb,
    tex_formats_float,
    tex_formats_float_partial,
    tex_formats_snorm,
    tex_formats_unorm,
    tex_formats_unorm_packed,
    tex_linear_mag,
    tex_lod_bias_glsl,
    tex_lod_bias_param,
    tex_lod_explicit,
    tex_max_lod,
    tex_min_lod,
    tex_mip_select,
    tex_rgbw_nearest,
    tex_texel_fetch,
    tex_texture_offset,
    tex_texture_size,
    tex_trilinear,
    tex_wrap_clamp_to_border,
    tex_wrap_clamp_to_edge,
    tex_wrap_mirror_clamp_to_edge,
    tex_wrap_mirrored_repeat,
    tex_wrap_repeat,
    ubo_std140,
    ubo_two_blocks,
    ubo_uniform_command,
    uniform_arrays,
    uniform_initializers,
    uniform_matrices,
    uniform_scalars_vectors,
    varyings_max_components,
    viewport,
}

/// Every scene file has a test above and every test a file: a new scene cannot be forgotten.
#[test]
fn every_scene_file_has_a_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/scenes");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("conformance/scenes")
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "shader_test").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = SCENES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "conformance/scenes and the scenes! list in cli/tests/conformance.rs differ"
    );
}
