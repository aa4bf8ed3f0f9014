//! The extensions softgl implements, in one place: what the GL API lists in GL_EXTENSIONS
//! and what the GLSL front end accepts in `#extension` (and predefines as a macro of value 1,
//! GLSL 4.60 §3.3). The two lists differ on purpose; each difference has its reason here.

/// GL_EXTENSIONS (glGetStringi / glGetString): extensions whose every command and shader
/// feature works end to end.
/// - GL_ARB_bindless_texture: the API and GLSL sides.
/// - GL_ARB_framebuffer_object: framebuffer and renderbuffer objects (multisample ones
///   included), blits, glGenerateMipmap, and attachments of any level of a 2D texture, a
///   cube face, a 3D slice or an array layer (`api/framebuffer.rs`,
///   `tests/framebuffer_layers.rs`); piglit's group: `tools/piglit-group.sh`. Its 1D
///   attachments cannot be made because softgl has no 1D textures yet.
/// - GL_KHR_debug: no GLSL side.
/// - GL_KHR_robustness: glGetGraphicsResetStatus, glReadnPixels, glGetnUniform{f,i,ui}v,
///   the reset notification strategy from the context attributes (EGL), GUILTY_CONTEXT_RESET
///   and the lost context when a shader runs out of its loop budget (`api/robustness.rs`),
///   robust buffer access always. GL_ARB_robustness is not listed: its compatibility-profile
///   getters (glGetnMapdvARB, glGetnPolygonStippleARB, ...) and glGetnUniformdv are missing.
/// - GL_ARB_conditional_render_inverted, GL_ARB_occlusion_query2, GL_ARB_sync,
///   GL_ARB_timer_query: query objects, conditional rendering and fences
///   (`api/query_object.rs`, `api/sync.rs`); exact sample counts.
/// - GL_ARB_draw_buffers_blend: glBlendFunc(Separate)i, glBlendEquation(Separate)i and their
///   ARB aliases, with per-buffer enables and colour masks (`api/blend.rs`,
///   `tests/draw_buffers_blend.rs`). No GLSL side.
/// - GL_ARB_draw_indirect, GL_ARB_multi_draw_indirect: the indirect draws (`api/draw.rs`),
///   every primitive mode but GL_PATCHES, as every draw command (points, lines, adjacency
///   modes, primitive restart). GL_ARB_indirect_parameters is not listed:
///   its Count draws work, but it is unchecked by piglit here.
/// - GL_ARB_texture_compression_rgtc, GL_EXT_texture_compression_rgtc,
///   GL_EXT_texture_compression_s3tc: glCompressedTex(ture)(Sub)Image2D/3D,
///   glGet(n)CompressedTex(ture)(Sub)Image with the blocks as uploaded, the compressed
///   pixel-store parameters, and uncompressed uploads compressed by the GL
///   (`api/compressed.rs`, `sampler/compressed/encode.rs`). BPTC and ETC2/EAC decode too,
///   but softgl has no encoder for them (an uncompressed upload keeps its texels and has no
///   blocks to read back), so GL_ARB_texture_compression_bptc and GL_ARB_ES3_compatibility
///   are not listed.
/// - GL_ARB_cull_distance: gl_CullDistance[] written by vertex shaders and read by fragment
///   shaders, the constants and limits (8 each, 8 together) with their compile errors
///   (`glsl/interface.rs`), primitives culled in `raster/clip.rs` (`tests/cull_distance.rs`).
///   piglit's group cannot check it here: its tests are GLSL 1.30 shader_tests and GL 3.0
///   programs that ask for a compatibility context (all 20 skip; llvmpipe passes 20).
/// - GL_ARB_blend_func_extended: dual-source blending, `layout(index = 1)`,
///   glBindFragDataLocationIndexed / glGetFragDataIndex, the SRC1_* factors in the reference
///   (`raster/ops.rs`) and generated code (`jit/fragment.rs`), the draw-time limit of one
///   draw buffer (`api/blend.rs`; `tests/dual_source_blend.rs`). piglit: output-location and
///   dual-src-blending-issue-1917 pass; the other 19 need a compatibility context,
///   GL_EXT_gpu_shader4 or GLES (llvmpipe passes 21).
/// - Checked with their piglit groups (`tools/piglit-group.sh`, 2026-11-26): each
///   test that runs on a core context passes; the rest need a compatibility context or
///   extensions softgl lacks. GL_ARB_copy_buffer (glCopy(Named)BufferSubData, 5 pass),
///   GL_ARB_texture_buffer_range (glTexBufferRange, 3 pass), GL_ARB_instanced_arrays
///   (glVertexAttribDivisor, 1 pass), GL_ARB_seamless_cube_map (1 pass),
///   GL_ARB_get_program_binary (the commands, with no binary formats, as the extension
///   allows; 1 pass), GL_ARB_base_instance and GL_ARB_draw_instanced (the base-instance
///   draws; gl_InstanceIDARB, `glsl/interface.rs`), GL_ARB_depth_clamp (`tests/clipping.rs`),
///   GL_ARB_provoking_vertex and GL_ARB_draw_elements_base_vertex. Their failures that
///   remain use compatibility commands (immediate mode, display lists, GL_QUADS) on softgl's
///   core context: `conformance/piglit-known-failures.txt`.
/// - GL_ARB_transform_feedback2, GL_ARB_transform_feedback3 and
///   GL_ARB_transform_feedback_instanced: transform feedback objects, pause/resume,
///   glDrawTransformFeedback(Stream)(Instanced), interleaved capture into several buffers
///   (gl_NextBuffer, gl_SkipComponents*), the indexed primitive queries and geometry
///   shader vertex streams, 4 of each (`api/transform_feedback.rs`, `ir/geometry.rs`,
///   `tests/transform_feedback.rs`, `tests/vertex_streams.rs`).
/// - GL_ARB_texture_gather: textureGather (2D, 2D array, cube, cube array) and
///   textureGatherOffset (2D, 2D array) in GLSL 1.30 with the extension, and GLSL 4.00's
///   forms (component, shadow, rectangle, Offsets) from 4.00 on; the limits
///   MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS 4 and MIN/MAX_PROGRAM_TEXTURE_GATHER_OFFSET
///   −32/31 (`glsl/limits.rs`). piglit's group (`tools/piglit-group.sh
///   'spec@arb_texture_gather@'`) passes every test that runs, its 176 cube-array tests
///   too since GL_ARB_texture_cube_map_array is listed; its gpu_shader5 ones skip.
/// - GL_ARB_texture_swizzle, GL_EXT_texture_swizzle: GL_TEXTURE_SWIZZLE_{R,G,B,A,RGBA} on
///   textures, applied after every lookup and before gather picks its component
///   (`tests/textures_integer.rs`; piglit's texture-gather swizzle tests). piglit's own
///   ext_texture_swizzle tests need a compatibility context.
/// - GL_ARB_texture_buffer_object: glTexBuffer, samplerBuffer, and the glGet state
///   (TEXTURE_BUFFER_FORMAT_ARB, TEXTURE_BUFFER_DATA_STORE_BINDING, TEXTURE_BINDING_BUFFER)
///   (`api/texture_buffer.rs`, `tests/texture_targets.rs`).
/// - GL_ARB_clear_buffer_object: glClear(Named)Buffer(Sub)Data with the extension's errors
///   (`api/buffer_dsa.rs`, `tests/buffer_commands.rs`).
/// - GL_ARB_sampler_objects: sampler objects and their parameters (`api/texture.rs`); the one
///   failing piglit test draws with fixed-function commands.
/// - GL_ARB_texture_query_levels, GL_ARB_texture_query_lod: textureQueryLevels and
///   textureQueryLOD (the extension's spelling) before GLSL 4.30 / 4.00.
/// - GL_ARB_shader_atomic_counters and GL_ARB_shader_atomic_counter_ops: `atomic_uint`
///   counters in every stage softgl runs (hidden storage blocks per binding,
///   `ir/atomic_counter.rs`, `glsl/atomic_counter.rs`), the counter built-ins, counters as
///   function arguments, GL_ATOMIC_COUNTER_BUFFER bindings, glGetActiveAtomicCounterBufferiv
///   and the program interface (`tests/atomic_counters.rs`).
/// - GL_ARB_separate_shader_objects: PROGRAM_SEPARABLE programs of any subset of stages,
///   glCreateShaderProgramv, program pipeline objects with their validation, interfaces
///   matched across programs by location and by name, uniforms per program through
///   glProgramUniform* and glActiveShaderProgram, compute and transform feedback through a
///   pipeline (`api/pipeline.rs`, `tests/program_pipeline.rs`), tessellation stages of
///   separate programs composed (`tests/tessellation.rs`).
/// - GL_ARB_texture_rectangle and GL_ARB_texture_cube_map_array: the targets, their
///   PROXY_TEXTURE_* targets (`api/proxy.rs`), the sampler types (keywords below GLSL
///   1.40 / 4.00 with the `#extension`, `glsl/lex.rs`) and GLSL 1.10's texture2DRect,
///   texture2DRectProj, shadow2DRect and shadow2DRectProj (`glsl/builtins.rs`).
/// - GL_ARB_viewport_array, GL_ARB_fragment_layer_viewport,
///   GL_ARB_shader_viewport_layer_array, GL_AMD_vertex_shader_layer and
///   GL_AMD_vertex_shader_viewport_index: the indexed viewport, scissor and depth-range
///   commands and queries (`api/viewport.rs`), gl_ViewportIndex and gl_Layer written by a
///   geometry shader (or, with the last three, a vertex shader) selecting each primitive's
///   viewport and layer (`raster/front.rs bin_geometry`), both read by fragment shaders
///   (`tests/layered.rs`).
///   piglit's groups: every test that runs passes (render-depthrange since gl_DepthRange
///   exists, `glsl/depth_range.rs`).
/// - GL_ARB_clear_texture: glClearTexImage / glClearTexSubImage on every target softgl has
///   (multisample ones on every sample), every internal format it stores, with the
///   extension's errors (`api/clear_texture.rs`, `tests/clear_texture.rs`). Its
///   GetInternalformat CLEAR_TEXTURE query belongs to ARB_internalformat_query2, which
///   softgl does not have.
/// - GL_ARB_framebuffer_no_attachments: glFramebufferParameteri, glNamedFramebufferParameteri
///   and their getters, the FRAMEBUFFER_DEFAULT_* state, completeness and draws of a
///   framebuffer with no attachment (fragments, storage writes and occlusion queries run
///   at the default size and sample count), GL_MAX_FRAMEBUFFER_* (`api/framebuffer_params.rs`,
///   `tests/framebuffer_no_attachments.rs`).
/// - GL_ARB_shader_subroutine: subroutine types, functions and uniforms in every stage
///   (arrays, `layout(index)` / `layout(location)` with GL_ARB_explicit_uniform_location),
///   the seven commands, glGetProgramStageiv, the SUBROUTINE(_UNIFORM) program interfaces,
///   the per-stage selection as context state with its resets (`glsl/subroutine.rs`,
///   `api/subroutine.rs`, `tests/subroutines.rs`). piglit's group
///   (`tools/piglit-group.sh 'spec@arb_shader_subroutine@'`, 2026-11-27): every test that
///   runs passes (39; llvmpipe 45); the 6 more llvmpipe runs need
///   GL_ARB_explicit_uniform_location, GL_ARB_compute_shader, GL_ARB_tessellation_shader
///   listed or a compatibility context. Not done: arrays of arrays of subroutine uniforms
///   (GL_ARB_arrays_of_arrays / GLSL 4.30's `u[2][2]`) are a compile error.
/// - GL_ARB_shader_storage_buffer_object, GL_ARB_compute_shader,
///   GL_ARB_shader_image_load_store and GL_ARB_shader_image_size: buffer blocks
///   (`glsl/storage.rs`, `api/storage_buffer.rs`), compute shaders (`glsl/compute.rs`,
///   `ir/compute.rs`, `api/compute.rs`) and images (`glsl/image.rs`, `api/image_unit.rs`,
///   `sampler/storage_image.rs`) in every GLSL version that enables them with `#extension`
///   as in the 4.20/4.30 versions that have them, with the memory qualifiers of storage
///   members (per member, under an instance name too), arrays of storage blocks indexed
///   by a dynamically uniform value, image uniforms in structs and the image-uniform
///   limits at link (`tests/memory_extensions.rs`). piglit (2026-11-27, override 4.5):
///   SSBO 42 of 103 pass (llvmpipe 86), compute 64 of 86 (70), image load/store 581 of 609
///   (591), image size 4 of 25, 178 of 200 with subtests (9, 184). What fails is listed
///   in `conformance/piglit-known-failures.txt`: texture formats softgl lacks (*_SNORM,
///   RGB10_A2UI), implicitly sized arrays, arrays of arrays of blocks, per-member matrix
///   layouts in storage blocks; most of the rest skip for extensions softgl does not list
///   (GL_ARB_program_interface_query, GL_ARB_uniform_buffer_object, GL_ARB_gpu_shader5) or
///   for a compatibility context.
/// - GL_ARB_tessellation_shader: both stages, the tessellator, glPatchParameter*, the
///   queries and limits (`api/tess.rs`, `tests/tessellation.rs`), separable programs with
///   tessellation stages in program pipelines (`api/pipeline.rs`), the fragment shader's
///   gl_PrimitiveID as the patch number, per-vertex arrays of structs between the stages
///   (`tests/tessellation_interfaces.rs`). piglit's group
///   (`tools/piglit-group.sh 'spec@arb_tessellation_shader@'`, 2026-11-27): 1768 pass, 0
///   fail, 39 skip of 1807 (llvmpipe 1794 pass, 1 fail); the skips need a compatibility
///   context or other extensions (`conformance/piglit-known-failures.txt`).
/// - GL_ARB_explicit_uniform_location: `layout(location)` on default-block uniforms
///   (arrays and struct leaves on consecutive locations, the others on the free ones,
///   the link errors, GL_MAX_UNIFORM_LOCATIONS; `ir/link.rs assign_locations`,
///   `tests/uniform_locations.rs`) and on subroutine uniforms and functions (above).
///   piglit's group (`tools/piglit-group.sh 'spec@arb_explicit_uniform_location@'`,
///   2026-11-27): every test that runs passes (9 of 44; llvmpipe 28): the others need a
///   compatibility context (the C tests and the GLSL 1.30 linker tests) or
///   GL_ARB_compute_shader; `tests/uniform_locations.rs` covers those linker cases.
/// - GL_ARB_uniform_buffer_object is not listed, though piglit's group passes every test
///   that runs with it listed locally (11 of 90, 2026-11-27; llvmpipe 74; the others ask
///   for a compatibility context or GL_ARB_direct_state_access): uniform blocks work in
///   every stage and in GLSL 1.30 with the `#extension`, as arrays and arrays of arrays of
///   blocks (`tests/arrays_of_arrays.rs`, `tests/uniform_buffer_object.rs`), with the
///   reflection commands and each stage's REFERENCED_BY_* (`api/stage_refs.rs`,
///   `tests/program_interface.rs`), but a `row_major` / `column_major` on one member that
///   differs from its block's lays out the whole block that way (`glsl/interface.rs
///   uniform_block`): the reflection (UNIFORM_IS_ROW_MAJOR) stays consistent, so
///   shader_runner's writes land right, but an application that lays out std140 by the
///   spec reads the other matrices transposed. Per-member matrix layouts are the missing
///   piece (storage blocks refuse them, `glsl/storage.rs`).
/// - GL_ARB_shading_language_420pack: GLSL 4.20's additions below 4.20 with the
///   `#extension`: initializer lists, `layout(binding)` on samplers and blocks, several
///   layout qualifiers on one declaration with the last of a name winning (an error
///   without the extension, `glsl/parse.rs`), `const` locals with non-constant
///   initializers, swizzles of scalars, line continuation, implicit conversion of returned
///   values, .length() on vectors and matrices; a block declared with two
///   bindings fails the link, and samplers of two types on one texture unit fail
///   glValidateProgram and make draws INVALID_OPERATION (`tests/shading_language_420pack.rs`).
///   piglit's group: every test that runs passes (25 of 124, 2026-11-27; before: 18 pass, 7 fail; llvmpipe 108); the 99 others ask for a compatibility context, GL_ARB_gpu_shader5 or GL_ARB_enhanced_layouts, so `tests/shading_language_420pack.rs` runs the language additions itself.
/// - GL_ARB_shader_bit_encoding: floatBitsTo{Int,Uint} and {int,uint}BitsToFloat below GLSL
///   3.30 (`tests/shader_bit_encoding.rs`). piglit's group: 6 of 53 pass, the rest are GLSL 1.30 compatibility shaders (llvmpipe 37).
/// - GL_ARB_program_interface_query is not listed: the commands work over every interface
///   (`api/program_resource.rs`, `tests/program_interface.rs`), but piglit's group still
///   fails where softgl lacks something: PROGRAM_INPUT / PROGRAM_OUTPUT list the vertex
///   inputs and fragment outputs only, not a first stage's inputs or a last stage's outputs
///   when those are other stages (with their built-ins and `patch` variables), every
///   element of an array of structs is active once one is used (`sa[1].hello` is listed),
///   and vertex inputs cannot be arrays of arrays. piglit (listed locally, 2026-11-27): 4 of 7 tests pass, 109 of 124 with subtests (before this work 2 and 102; llvmpipe 6 and 137); the failures are in `conformance/piglit-known-failures.txt`.
/// - GL_ARB_arrays_of_arrays is not listed: local arrays, uniforms, constructors,
///   `.length()` and blocks (`tests/arrays_of_arrays.rs`) work; arrays of arrays of
///   varyings and interface-block members, of atomic counters and of subroutine uniforms
///   are compile errors, arrays of in/out interface blocks too. piglit (listed locally, 2026-11-27): 33 pass, 41 fail, 145 skip of 219 (before: 27 / 47; llvmpipe 203 pass, 16 skip); the failures are in `conformance/piglit-known-failures.txt`.
/// - GL_ARB_gpu_shader_fp64: `double`, `dvecN`, `dmatNxM` as two u32 words each
///   (ARCHITECTURE.md §8): arithmetic, conversions, every GLSL 4.00 built-in on doubles
///   (frexp/ldexp/modf included; fma correctly rounded), constant expressions and
///   uniform initializers of doubles (folded with the interpreter's ops, `ir::fold`),
///   flat double varyings, doubles in std140/std430 blocks (row-major matrices too),
///   transform feedback of doubles, the 34 glUniform*d / glGetUniformdv commands
///   (`tests/double_uniforms.rs`, `jit/double_tests.rs`). Double vertex inputs are
///   GLSL 4.10 / GL_ARB_vertex_attrib_64bit, which is not listed. piglit's group
///   (`tools/piglit-group.sh 'spec@arb_gpu_shader_fp64@'`, release, 2026-11-27): 3254
///   pass, 7 fail, 55 skip of 3316 (llvmpipe 3265 pass, 39 fail — explicit double to
///   float conversions — 12 skip); the 7 failures are core-profile strictness piglit's C
///   tests trip on and an implicitly sized uniform-block array
///   (`conformance/piglit-known-failures.txt`); 37 skips need GL_ARB_arrays_of_arrays, 5
///   GL_ARB_shading_language_420pack, the rest a compatibility context.
/// - GL_ARB_texture_view is not listed: glTextureView works (`api/texture_view.rs`,
///   `tests/texture_view.rs`) for views whose format softgl stores like the original's,
///   but a view between two formats of one view class that softgl stores differently
///   (RGB8 kept in RGBA8, RGB10_A2 and 16-bit normalized formats in floats, RG16F in
///   half-float RGBA, ...) is refused with INVALID_OPERATION.
pub const GL: &[&str] = &[
    "GL_AMD_vertex_shader_layer",
    "GL_AMD_vertex_shader_viewport_index",
    "GL_ARB_base_instance",
    "GL_ARB_bindless_texture",
    "GL_ARB_blend_func_extended",
    "GL_ARB_clear_buffer_object",
    "GL_ARB_clear_texture",
    "GL_ARB_compute_shader",
    "GL_ARB_conditional_render_inverted",
    "GL_ARB_copy_buffer",
    "GL_ARB_cull_distance",
    "GL_ARB_depth_clamp",
    "GL_ARB_draw_buffers_blend",
    "GL_ARB_draw_elements_base_vertex",
    "GL_ARB_draw_indirect",
    "GL_ARB_draw_instanced",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_framebuffer_no_attachments",
    "GL_ARB_framebuffer_object",
    "GL_ARB_get_program_binary",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_instanced_arrays",
    "GL_ARB_multi_draw_indirect",
    "GL_ARB_occlusion_query2",
    "GL_ARB_provoking_vertex",
    "GL_ARB_sampler_objects",
    "GL_ARB_seamless_cube_map",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_subroutine",
    "GL_ARB_shader_viewport_layer_array",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_sync",
    "GL_ARB_tessellation_shader",
    "GL_ARB_texture_buffer_object",
    "GL_ARB_texture_buffer_range",
    "GL_ARB_texture_compression_rgtc",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_texture_gather",
    "GL_ARB_texture_query_levels",
    "GL_ARB_texture_query_lod",
    "GL_ARB_texture_rectangle",
    "GL_ARB_texture_storage",
    "GL_ARB_texture_storage_multisample",
    "GL_ARB_texture_swizzle",
    "GL_ARB_timer_query",
    "GL_ARB_transform_feedback2",
    "GL_ARB_transform_feedback3",
    "GL_ARB_transform_feedback_instanced",
    "GL_ARB_viewport_array",
    "GL_EXT_texture_compression_rgtc",
    "GL_EXT_texture_compression_s3tc",
    "GL_EXT_texture_swizzle",
    "GL_KHR_debug",
    "GL_KHR_robustness",
];

/// `#extension` names the front end implements (`require` on any other fails).
///
/// Accepted by GLSL but not listed in GL_EXTENSIONS, because the API side is missing or the
/// whole extension has not been checked end to end:
/// - GL_ARB_arrays_of_arrays: see `GL` (varyings, atomic counters and subroutine uniforms
///   are missing).
/// - GL_ARB_uniform_buffer_object: see `GL` (per-member matrix layouts are missing); with
///   the `#extension` GLSL 1.30 declares uniform blocks.
/// - GL_ARB_gpu_shader_int64: the 64-bit integer types; glUniform*i64 exist only for the
///   bindless handles' ui64 forms.
///
/// The extensions of `GL` with a GLSL side are in this list too (GL_ARB_explicit_attrib_location
/// and the others above it).
pub const GLSL: &[&str] = &[
    "GL_AMD_vertex_shader_layer",
    "GL_AMD_vertex_shader_viewport_index",
    "GL_ARB_arrays_of_arrays",
    "GL_ARB_bindless_texture",
    "GL_ARB_blend_func_extended",
    "GL_ARB_compute_shader",
    "GL_ARB_cull_distance",
    "GL_ARB_draw_instanced",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_gpu_shader_fp64",
    "GL_ARB_gpu_shader_int64",
    "GL_ARB_shading_language_420pack",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_explicit_uniform_location",
    "GL_ARB_separate_shader_objects",
    "GL_ARB_shader_atomic_counter_ops",
    "GL_ARB_shader_atomic_counters",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_subroutine",
    "GL_ARB_shader_viewport_layer_array",
    "GL_ARB_tessellation_shader",
    "GL_ARB_texture_cube_map_array",
    "GL_ARB_texture_gather",
    "GL_ARB_texture_query_levels",
    "GL_ARB_texture_query_lod",
    "GL_ARB_texture_rectangle",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_viewport_array",
];

#[cfg(test)]
mod tests {
    #[test]
    fn lists_are_sorted_where_it_matters_and_have_no_duplicates() {
        for list in [super::GL, super::GLSL] {
            let mut v = list.to_vec();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), list.len(), "duplicate in {list:?}");
        }
        let mut gl = super::GL.to_vec();
        gl.sort_unstable();
        assert_eq!(
            gl,
            super::GL,
            "GL_EXTENSIONS is reported in this order: keep it sorted"
        );
    }
}
