//! State queries (GL 4.5 core chapter 22): glGetString/glGetStringi, glGetIntegerv,
//! glGetFloatv, glGetBooleanv for the implementation limits and the state this context keeps.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{self, GlError, GlResult};
use crate::gl::enums as gl;

/// GL_VENDOR.
pub const VENDOR: &str = "softgl";

/// GL_RENDERER: names softgl, its shader compiler and how many threads rasterize.
pub fn renderer(threads: usize) -> String {
    let plural = if threads == 1 { "" } else { "s" };
    format!("softgl (Cranelift JIT, {threads} thread{plural})")
}

/// The version this context reports.
///
/// Honesty (DESIGN.md §6): GL_VERSION is the highest version whose every feature works, and
/// no GL version is complete yet, so the numbers are the floor, 1.0, and the string says
/// plainly that it is incomplete. Below 3.2 every version includes what the compatibility
/// profile later kept (fixed-function vertex and fragment processing, immediate mode,
/// display lists, the GLSL built-in state such as gl_ModelViewMatrix), which softgl does
/// not implement; a core-profile claim (3.2 and later) waits for the rest of issues #12,
/// #13 and #14 (among others: every texture format and target, fp64 and int64 in full,
/// ARB_gpu_shader5, arrays of arrays; the issues list what is left). Raise these numbers
/// only when every feature of the version works.
///
/// These are the honest answer; a context made while `SOFTGL_GL_VERSION_OVERRIDE` is set
/// claims that version instead (`version.rs`, the user's explicit choice).
pub const VERSION_MAJOR: i32 = 1;
pub const VERSION_MINOR: i32 = 0;
pub const VERSION: &str = "1.0 softgl 0.1.0 (incomplete: no GL version is complete yet)";
/// GLSL version, by the same rule: the front end accepts `#version 110` to `460`, but even
/// GLSL 1.10 has the compatibility built-ins (gl_Vertex, gl_ModelViewMatrix, ftransform),
/// which softgl lacks.
pub const SHADING_LANGUAGE_VERSION: &str =
    "1.10 softgl (incomplete: no GLSL version is complete yet)";

/// Extensions that work end to end (the list GL_EXTENSIONS reports through glGetStringi);
/// the reasons per entry are in `crate::extensions`.
pub const EXTENSIONS: &[&str] = crate::extensions::GL;

/// A glGet value before conversion to the requested type.
enum Value {
    Ints(Vec<i32>),
    Floats(Vec<f32>),
    Bools(Vec<bool>),
}

gl_commands! {
    /// glGetIntegerv (floats round to nearest, GL 4.5 core §2.2.2; colours map to the
    /// integer range).
    "glGetIntegerv" fn get_integerv(pname: u32) -> Vec<i32> = try_get_integerv;
    /// glGetInteger64v: as glGetIntegerv, with GL_TIMESTAMP and GL_MAX_SERVER_WAIT_TIMEOUT
    /// in full.
    "glGetInteger64v" fn get_integer64v(pname: u32) -> Vec<i64> = try_get_integer64v;
    /// glGetFloatv.
    "glGetFloatv" fn get_floatv(pname: u32) -> Vec<f32> = try_get_floatv;
    /// glGetBooleanv.
    "glGetBooleanv" fn get_booleanv(pname: u32) -> Vec<bool> = try_get_booleanv;
    /// glGetIntegeri_v (GL 4.5 core §22.1): indexed state (uniform buffer bindings; the
    /// blend state and colour mask of draw buffer `index`; viewport and scissor 0).
    "glGetIntegeri_v" fn get_integeri_v(pname: u32, index: u32) -> Vec<i32> = try_get_integeri_v;
    /// glGetInteger64i_v: as glGetIntegeri_v, offsets and sizes in full.
    "glGetInteger64i_v"
    fn get_integer64i_v(pname: u32, index: u32) -> Vec<i64> = try_get_integer64i_v;
    /// glGetBooleani_v.
    "glGetBooleani_v" fn get_booleani_v(pname: u32, index: u32) -> Vec<bool> = try_get_booleani_v;
    /// glGetFloati_v (and glGetDoublei_v through the C ABI).
    "glGetFloati_v" fn get_floati_v(pname: u32, index: u32) -> Vec<f32> = try_get_floati_v;
    /// glIsEnabledi: GL_BLEND of draw buffer `index`, GL_SCISSOR_TEST of viewport `index`.
    "glIsEnabledi" fn is_enabledi(cap: u32, index: u32) -> bool = try_is_enabledi;
    /// glGetString. GL_EXTENSIONS is INVALID_ENUM in a 3.1+ core context (use glGetStringi).
    "glGetString" fn get_string(name: u32) -> Option<String> = try_get_string, group by body;
    /// glGetStringi(GL_EXTENSIONS, i).
    "glGetStringi"
    fn get_stringi(name: u32, index: u32) -> Option<String> = try_get_stringi, group by body;
}

impl Context {
    pub(crate) fn try_get_string(&mut self, name: u32) -> GlResult<Option<String>> {
        Ok(Some(match name {
            gl::VENDOR => VENDOR.to_string(),
            gl::RENDERER => renderer(self.threads()),
            gl::VERSION => self.reported.version_string(),
            gl::SHADING_LANGUAGE_VERSION => self.reported.glsl_string(),
            gl::EXTENSIONS if self.legacy_extension_string() => EXTENSIONS.join(" "),
            _ => return Err(GlError::BadEnum("string name", name)),
        }))
    }

    /// Whether glGetString(GL_EXTENSIONS) exists for this context: in GL up to 3.0 and in
    /// the compatibility profile; GL 3.1+ core removed it (GL 4.5 core §22.2, appendix E).
    /// Loaders such as glow read it when the reported version is below 3.0.
    fn legacy_extension_string(&self) -> bool {
        let int = |pname| match self.get_value(pname) {
            Ok(Value::Ints(v)) => v.first().copied().unwrap_or(0),
            _ => 0,
        };
        let (major, minor) = (int(gl::MAJOR_VERSION), int(gl::MINOR_VERSION));
        major < 3
            || (major == 3 && minor == 0)
            || int(gl::CONTEXT_PROFILE_MASK) & gl::CONTEXT_COMPATIBILITY_PROFILE_BIT as i32 != 0
    }

    pub(crate) fn try_get_stringi(&mut self, name: u32, index: u32) -> GlResult<Option<String>> {
        if name != gl::EXTENSIONS {
            return Err(GlError::BadEnum("indexed string name", name));
        }
        match EXTENSIONS.get(index as usize) {
            Some(e) => Ok(Some(e.to_string())),
            None => Err(GlError::InvalidValue("extension index")),
        }
    }

    fn get_value(&self, pname: u32) -> GlResult<Value> {
        use Value::*;
        let f = &self.fixed;
        let b = |x: bool| Bools(vec![x]);
        let i = |x: i32| Ints(vec![x]);
        let name = |x: Option<u32>| Ints(vec![x.map_or(0, |v| v as i32)]);
        if let Some(v) = self.hints.value(pname) {
            return Ok(i(v));
        }
        if let Some((pack, field)) = crate::api::pixels::store_param(pname) {
            let store = if pack { &self.pack } else { &self.unpack };
            return Ok(i(store.get(field)));
        }
        if let Some(v) = self.xfb_integer(pname) {
            return Ok(match pname {
                gl::TRANSFORM_FEEDBACK_ACTIVE
                | gl::TRANSFORM_FEEDBACK_PAUSED
                | gl::RASTERIZER_DISCARD => b(v != 0),
                _ => i(v as i32),
            });
        }
        Ok(match pname {
            gl::MAJOR_VERSION => i(self.reported.major as i32),
            gl::MINOR_VERSION => i(self.reported.minor as i32),
            gl::NUM_EXTENSIONS => i(EXTENSIONS.len() as i32),
            gl::CONTEXT_PROFILE_MASK => i(self.reported.profile_mask() as i32),
            gl::CONTEXT_FLAGS => i(self.reported.context_flags() as i32),
            // KHR_robustness (`robustness.rs`).
            gl::CONTEXT_ROBUST_ACCESS => b(self.reported.attribs.robust_access),
            gl::RESET_NOTIFICATION_STRATEGY => i(if self.robustness.lose_context_on_reset {
                gl::LOSE_CONTEXT_ON_RESET
            } else {
                gl::NO_RESET_NOTIFICATION
            } as i32),
            gl::NUM_COMPRESSED_TEXTURE_FORMATS => i(crate::api::compressed::FORMATS.len() as i32),
            gl::COMPRESSED_TEXTURE_FORMATS => {
                Ints(crate::api::compressed::FORMATS.map(|f| f as i32).to_vec())
            }
            gl::MAX_TEXTURE_SIZE => i(limits::MAX_TEXTURE_SIZE),
            gl::MAX_ARRAY_TEXTURE_LAYERS => i(limits::MAX_ARRAY_TEXTURE_LAYERS),
            // Cube faces are 2D images; a 3D texture's depth is checked like a layer count.
            gl::MAX_CUBE_MAP_TEXTURE_SIZE => i(limits::MAX_TEXTURE_SIZE),
            gl::MAX_3D_TEXTURE_SIZE => i(limits::MAX_ARRAY_TEXTURE_LAYERS),
            gl::MAX_RECTANGLE_TEXTURE_SIZE => i(limits::MAX_TEXTURE_SIZE),
            gl::MAX_TEXTURE_BUFFER_SIZE => i(limits::MAX_TEXTURE_BUFFER_SIZE),
            gl::TEXTURE_BUFFER_OFFSET_ALIGNMENT => i(limits::TEXTURE_BUFFER_OFFSET_ALIGNMENT),
            gl::MAX_RENDERBUFFER_SIZE => i(limits::MAX_RENDERBUFFER_SIZE),
            gl::MAX_FRAMEBUFFER_WIDTH | gl::MAX_FRAMEBUFFER_HEIGHT => {
                i(crate::api::framebuffer_params::MAX_FRAMEBUFFER_SIZE)
            }
            gl::MAX_FRAMEBUFFER_LAYERS => i(crate::api::framebuffer_params::MAX_FRAMEBUFFER_LAYERS),
            gl::MAX_FRAMEBUFFER_SAMPLES => {
                i(crate::api::framebuffer_params::MAX_FRAMEBUFFER_SAMPLES)
            }
            gl::MAX_VERTEX_ATTRIBS => i(limits::MAX_VERTEX_ATTRIBS as i32),
            gl::MAX_TEXTURE_IMAGE_UNITS | gl::MAX_VERTEX_TEXTURE_IMAGE_UNITS => {
                i(limits::MAX_TEXTURE_IMAGE_UNITS)
            }
            gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS => {
                i(limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as i32)
            }
            gl::MAX_UNIFORM_BUFFER_BINDINGS => i(limits::MAX_UNIFORM_BUFFER_BINDINGS as i32),
            gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS => {
                i(limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS as i32)
            }
            gl::MAX_VERTEX_SHADER_STORAGE_BLOCKS | gl::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS => {
                i(limits::MAX_STAGE_SHADER_STORAGE_BLOCKS)
            }
            gl::MAX_COMBINED_SHADER_STORAGE_BLOCKS => {
                i(2 * limits::MAX_STAGE_SHADER_STORAGE_BLOCKS)
            }
            // Stages softgl does not run yet have no storage blocks.
            gl::MAX_GEOMETRY_SHADER_STORAGE_BLOCKS
            | gl::MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS
            | gl::MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS => i(0),
            gl::MAX_SHADER_STORAGE_BLOCK_SIZE => i(limits::MAX_SHADER_STORAGE_BLOCK_SIZE),
            gl::MAX_IMAGE_UNITS => i(crate::api::image_unit::MAX_IMAGE_UNITS as i32),
            // Image limits: the values of the GLSL constants.
            p if crate::glsl::builtin_constants::image_limit(p).is_some() => {
                i(crate::glsl::builtin_constants::image_limit(p).unwrap_or(0))
            }
            // Atomic counters: the values of the GLSL constants.
            p if crate::glsl::builtin_constants::counter_limit(p).is_some() => {
                i(crate::glsl::builtin_constants::counter_limit(p).unwrap_or(0))
            }
            gl::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT => {
                i(limits::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT)
            }
            gl::MAX_UNIFORM_BLOCK_SIZE => i(limits::MAX_UNIFORM_BLOCK_SIZE),
            gl::MAX_VERTEX_UNIFORM_BLOCKS | gl::MAX_FRAGMENT_UNIFORM_BLOCKS => {
                i(limits::MAX_STAGE_UNIFORM_BLOCKS)
            }
            gl::MAX_COMBINED_UNIFORM_BLOCKS => {
                i(crate::ir::link::MAX_COMBINED_UNIFORM_BLOCKS as i32)
            }
            // Default-block components plus every block at its largest (GL 4.5 core §7.6.2).
            gl::MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS
            | gl::MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS => i(limits::MAX_UNIFORM_COMPONENTS
                + limits::MAX_STAGE_UNIFORM_BLOCKS * limits::MAX_UNIFORM_BLOCK_SIZE / 4),
            gl::MAX_TEXTURE_LOD_BIAS => Floats(vec![crate::sampler::MAX_TEXTURE_LOD_BIAS]),
            // The GLSL front end refuses constant offsets outside these (GLSL 4.60 §8.9.2).
            gl::MIN_PROGRAM_TEXEL_OFFSET => i(crate::glsl::limits::TEXEL_OFFSETS.0),
            gl::MAX_PROGRAM_TEXEL_OFFSET => i(crate::glsl::limits::TEXEL_OFFSETS.1),
            gl::MIN_PROGRAM_TEXTURE_GATHER_OFFSET => i(crate::glsl::limits::GATHER_OFFSETS.0),
            gl::MAX_PROGRAM_TEXTURE_GATHER_OFFSET => i(crate::glsl::limits::GATHER_OFFSETS.1),
            // textureGather reads any component of any format (ARB_texture_gather: 4 means
            // every internal format is supported).
            gl::MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB => i(4),
            // glDrawRangeElements recommendations (GL 4.5 core §10.4): no count is slower
            // than another per vertex, so the largest values.
            gl::MAX_ELEMENTS_VERTICES | gl::MAX_ELEMENTS_INDICES => i(i32::MAX),
            // No EGL config of softgl's is stereo.
            gl::STEREO => b(false),
            gl::MAX_ELEMENT_INDEX => i(i32::MAX),
            gl::UNIFORM_BUFFER_OFFSET_ALIGNMENT => i(limits::UNIFORM_BUFFER_OFFSET_ALIGNMENT),
            gl::MAX_DRAW_BUFFERS => i(limits::MAX_DRAW_BUFFERS as i32),
            gl::MAX_COLOR_ATTACHMENTS => i(limits::MAX_COLOR_ATTACHMENTS as i32),
            gl::MAX_VIEWPORT_DIMS => Ints(vec![limits::MAX_VIEWPORT_DIMS; 2]),
            // Window coordinates snap to 8 sub-pixel bits (`raster::fixed`); the viewport's
            // origin is an integer, clamped to the bounds range (GL 4.5 core §13.6.1).
            gl::SUBPIXEL_BITS => i(crate::raster::fixed::SUBPIXEL_BITS as i32),
            gl::VIEWPORT_SUBPIXEL_BITS => i(0),
            gl::MAX_VIEWPORTS => i(limits::MAX_VIEWPORTS as i32),
            gl::MAX_SUBROUTINES => i(crate::ir::subroutine::MAX_SUBROUTINES as i32),
            gl::MAX_SUBROUTINE_UNIFORM_LOCATIONS => {
                i(crate::ir::subroutine::MAX_SUBROUTINE_UNIFORM_LOCATIONS as i32)
            }
            // GL 4.5 core table 23.69: the vertex whose gl_Layer / gl_ViewportIndex a
            // primitive takes; softgl takes the provoking vertex's (`raster::front`).
            gl::VIEWPORT_INDEX_PROVOKING_VERTEX | gl::LAYER_PROVOKING_VERTEX => {
                i(gl::PROVOKING_VERTEX as i32)
            }
            gl::DEPTH_CLAMP => b(f.clip.depth_clamp),
            gl::CLIP_ORIGIN | gl::CLIP_DEPTH_MODE => {
                i(crate::api::viewport::clip_control_value(f, pname).unwrap_or(0) as i32)
            }
            gl::CLAMP_READ_COLOR => i(self.clamp_read_color as i32),

            gl::VIEWPORT_BOUNDS_RANGE => Ints(limits::VIEWPORT_BOUNDS_RANGE.to_vec()),
            gl::MAX_VERTEX_ATTRIB_STRIDE => i(limits::MAX_VERTEX_ATTRIB_STRIDE),
            gl::NUM_PROGRAM_BINARY_FORMATS | gl::NUM_SHADER_BINARY_FORMATS => i(0),
            gl::PROGRAM_BINARY_FORMATS | gl::SHADER_BINARY_FORMATS => Ints(Vec::new()),
            gl::SHADER_COMPILER => b(true),
            gl::MAX_VERTEX_ATTRIB_BINDINGS => {
                i(crate::api::vertex_array::MAX_VERTEX_ATTRIB_BINDINGS as i32)
            }
            gl::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET => {
                i(crate::api::vertex_array::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET as i32)
            }
            gl::MAX_SAMPLES
            | gl::MAX_COLOR_TEXTURE_SAMPLES
            | gl::MAX_DEPTH_TEXTURE_SAMPLES
            | gl::MAX_INTEGER_SAMPLES => i(limits::MAX_SAMPLES),
            gl::MAX_SAMPLE_MASK_WORDS => i(limits::MAX_SAMPLE_MASK_WORDS as i32),
            gl::SAMPLES => i(self.draw_samples() as i32),
            gl::SAMPLE_BUFFERS => i((self.draw_samples() > 0) as i32),
            gl::SAMPLE_MASK => b(f.sample_mask_enabled),
            gl::SAMPLE_COVERAGE => b(f.sample_coverage),
            gl::SAMPLE_COVERAGE_VALUE => Floats(vec![f.sample_coverage_value]),
            gl::SAMPLE_COVERAGE_INVERT => b(f.sample_coverage_invert),
            gl::SAMPLE_SHADING => b(f.sample_shading),
            gl::MIN_SAMPLE_SHADING_VALUE => Floats(vec![f.min_sample_shading]),
            gl::MAX_VERTEX_UNIFORM_COMPONENTS | gl::MAX_FRAGMENT_UNIFORM_COMPONENTS => {
                i(limits::MAX_UNIFORM_COMPONENTS)
            }
            gl::MAX_VERTEX_UNIFORM_VECTORS | gl::MAX_FRAGMENT_UNIFORM_VECTORS => {
                i(limits::MAX_UNIFORM_COMPONENTS / 4)
            }
            gl::MAX_UNIFORM_LOCATIONS => i(crate::ir::link::MAX_UNIFORM_LOCATIONS as i32),
            gl::MAX_VARYING_COMPONENTS => i(limits::MAX_VARYING_COMPONENTS),
            gl::MAX_VARYING_VECTORS => i(limits::MAX_VARYING_COMPONENTS / 4),
            gl::MAX_VERTEX_OUTPUT_COMPONENTS => i(limits::MAX_VERTEX_OUTPUT_COMPONENTS),
            gl::MAX_FRAGMENT_INPUT_COMPONENTS => i(limits::MAX_FRAGMENT_INPUT_COMPONENTS),
            gl::MAX_CLIP_DISTANCES => i(limits::MAX_CLIP_DISTANCES),
            gl::MAX_CULL_DISTANCES => i(limits::MAX_CULL_DISTANCES),
            gl::MAX_DUAL_SOURCE_DRAW_BUFFERS => {
                i(crate::ir::link::MAX_DUAL_SOURCE_DRAW_BUFFERS as i32)
            }
            gl::MAX_COMBINED_CLIP_AND_CULL_DISTANCES => {
                i(limits::MAX_COMBINED_CLIP_AND_CULL_DISTANCES)
            }
            gl::VIEWPORT => Floats(f.clip.viewport_floats[0].to_vec()),
            gl::SCISSOR_BOX => Ints(f.scissor_box.to_vec()),
            gl::DEPTH_RANGE => Floats(f.depth_range.iter().map(|&d| d as f32).collect()),
            gl::COLOR_CLEAR_VALUE => Floats(f.clear_color.to_vec()),
            gl::DEPTH_CLEAR_VALUE => Floats(vec![f.clear_depth as f32]),
            gl::STENCIL_CLEAR_VALUE => i(f.clear_stencil),
            gl::BLEND_COLOR => Floats(f.blend[0].color.to_vec()),
            gl::COLOR_WRITEMASK => Bools(f.color_mask[0].to_vec()),
            gl::DEPTH_WRITEMASK => b(f.depth_mask),
            gl::DEPTH_TEST => b(f.depth_test),
            gl::STENCIL_TEST => b(f.stencil.test),
            gl::BLEND => b(f.blend[0].enabled),
            gl::CULL_FACE => b(f.cull_face_enabled),
            gl::SCISSOR_TEST => b(f.scissor_test),
            gl::DITHER => b(f.dither),
            gl::FRAMEBUFFER_SRGB => b(f.framebuffer_srgb),
            gl::COLOR_LOGIC_OP => b(f.color_logic_op),
            gl::LOGIC_OP_MODE => i(f.logic_op as i32),
            gl::MULTISAMPLE => b(f.multisample),
            gl::LINE_SMOOTH => b(f.line_smooth),
            gl::POLYGON_SMOOTH => b(f.polygon_smooth),
            gl::TEXTURE_CUBE_MAP_SEAMLESS => b(f.cube_map_seamless),
            gl::PROGRAM_POINT_SIZE => b(f.program_point_size),
            gl::POINT_SIZE => Floats(vec![f.point_size]),
            gl::LINE_WIDTH => Floats(vec![f.line_width]),
            gl::POINT_SIZE_RANGE | gl::ALIASED_POINT_SIZE_RANGE => {
                Floats(crate::api::draw::POINT_SIZE_RANGE.to_vec())
            }
            gl::ALIASED_LINE_WIDTH_RANGE | gl::SMOOTH_LINE_WIDTH_RANGE => {
                Floats(crate::api::draw::LINE_WIDTH_RANGE.to_vec())
            }
            // Sizes and widths are used as given (no rounding): llvmpipe's 0.1 says as much.
            gl::POINT_SIZE_GRANULARITY | gl::LINE_WIDTH_GRANULARITY => Floats(vec![0.1]),
            gl::PRIMITIVE_RESTART => b(f.prims.restart),
            gl::PRIMITIVE_RESTART_FIXED_INDEX => b(f.prims.restart_fixed),
            gl::PRIMITIVE_RESTART_INDEX => Ints(vec![f.prims.restart_index as i32]),
            gl::POINT_SPRITE_COORD_ORIGIN => i(if f.prims.sprite_lower_left {
                gl::LOWER_LEFT
            } else {
                gl::UPPER_LEFT
            } as i32),
            gl::POINT_FADE_THRESHOLD_SIZE => Floats(vec![f.prims.fade_threshold]),
            gl::POLYGON_MODE => Ints(vec![f.prims.polygon_mode as i32; 2]),
            gl::POLYGON_OFFSET_FACTOR => Floats(vec![f.prims.offset[0]]),
            gl::POLYGON_OFFSET_UNITS => Floats(vec![f.prims.offset[1]]),
            gl::POLYGON_OFFSET_CLAMP => Floats(vec![f.prims.offset[2]]),
            gl::POLYGON_OFFSET_FILL => b(f.prims.offset_fill),
            gl::POLYGON_OFFSET_LINE => b(f.prims.offset_line),
            gl::POLYGON_OFFSET_POINT => b(f.prims.offset_point),
            gl::DEPTH_FUNC => i(f.depth_func.to_gl() as i32),
            gl::CULL_FACE_MODE => i(f.cull_face.to_gl() as i32),
            gl::FRONT_FACE => i(f.front_face.to_gl() as i32),
            gl::PROVOKING_VERTEX => i(if f.provoking_first {
                gl::FIRST_VERTEX_CONVENTION
            } else {
                gl::LAST_VERTEX_CONVENTION
            } as i32),
            gl::BLEND_SRC_RGB => i(f.blend[0].src_rgb.to_gl() as i32),
            gl::BLEND_DST_RGB => i(f.blend[0].dst_rgb.to_gl() as i32),
            gl::BLEND_SRC_ALPHA => i(f.blend[0].src_alpha.to_gl() as i32),
            gl::BLEND_DST_ALPHA => i(f.blend[0].dst_alpha.to_gl() as i32),
            gl::BLEND_EQUATION_RGB => i(f.blend[0].eq_rgb.to_gl() as i32),
            gl::BLEND_EQUATION_ALPHA => i(f.blend[0].eq_alpha.to_gl() as i32),
            gl::ACTIVE_TEXTURE => i((gl::TEXTURE0 + self.active_texture) as i32),
            gl::TEXTURE_BINDING_2D => {
                name(self.texture_units[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_2D_ARRAY => {
                name(self.texture_units_2d_array[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_CUBE_MAP => {
                name(self.texture_units_cube[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_3D => {
                name(self.texture_units_3d[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_2D_MULTISAMPLE => {
                name(self.texture_units_ms[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY => {
                name(self.texture_units_ms_array[self.active_texture as usize].map(|t| t.0))
            }
            gl::TEXTURE_BINDING_1D
            | gl::TEXTURE_BINDING_1D_ARRAY
            | gl::TEXTURE_BINDING_RECTANGLE
            | gl::TEXTURE_BINDING_CUBE_MAP_ARRAY
            | gl::TEXTURE_BINDING_BUFFER => {
                let k = crate::api::texture::more_binding_index(pname);
                name(self.texture_units_more[k][self.active_texture as usize].map(|t| t.0))
            }
            gl::SAMPLER_BINDING => {
                name(self.sampler_units[self.active_texture as usize].map(|s| s.0))
            }
            gl::ARRAY_BUFFER_BINDING => i(self.buffer_binding_raw(gl::ARRAY_BUFFER)),
            gl::ELEMENT_ARRAY_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::ELEMENT_ARRAY_BUFFER))
            }
            gl::UNIFORM_BUFFER_BINDING => i(self.buffer_binding_raw(gl::UNIFORM_BUFFER)),
            gl::SHADER_STORAGE_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::SHADER_STORAGE_BUFFER))
            }
            gl::ATOMIC_COUNTER_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::ATOMIC_COUNTER_BUFFER))
            }
            gl::PIXEL_PACK_BUFFER_BINDING => i(self.buffer_binding_raw(gl::PIXEL_PACK_BUFFER)),
            gl::PIXEL_UNPACK_BUFFER_BINDING => i(self.buffer_binding_raw(gl::PIXEL_UNPACK_BUFFER)),
            gl::COPY_READ_BUFFER_BINDING => i(self.buffer_binding_raw(gl::COPY_READ_BUFFER)),
            gl::COPY_WRITE_BUFFER_BINDING => i(self.buffer_binding_raw(gl::COPY_WRITE_BUFFER)),
            gl::TRANSFORM_FEEDBACK_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::TRANSFORM_FEEDBACK_BUFFER))
            }
            gl::QUERY_BUFFER_BINDING => i(self.buffer_binding_raw(gl::QUERY_BUFFER)),
            gl::DRAW_INDIRECT_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::DRAW_INDIRECT_BUFFER))
            }
            gl::PARAMETER_BUFFER_BINDING => i(self.buffer_binding_raw(gl::PARAMETER_BUFFER)),
            gl::DISPATCH_INDIRECT_BUFFER_BINDING => {
                i(self.buffer_binding_raw(gl::DISPATCH_INDIRECT_BUFFER))
            }
            // GL 4.5 core table 23.52: the buffer bound to the GL_TEXTURE_BUFFER target
            // (the same value as GL_TEXTURE_BUFFER).
            gl::TEXTURE_BUFFER_BINDING => i(self.buffer_binding_raw(gl::TEXTURE_BUFFER)),
            // ARB_texture_buffer_object's state of the buffer texture bound to the active
            // unit: its internal format (R8 until glTexBuffer, as in a core context; GL 4.5
            // core table 23.17) and the buffer it reads (Mesa answers both in core too).
            gl::TEXTURE_BUFFER_FORMAT_ARB | gl::TEXTURE_BUFFER_DATA_STORE_BINDING => {
                let r = self.bound_texture_of(
                    gl::TEXTURE_BUFFER,
                    &[gl::TEXTURE_BUFFER],
                    "texture target",
                )?;
                let t = self.texture(r);
                i(match pname {
                    gl::TEXTURE_BUFFER_FORMAT_ARB => t.map_or(gl::R8, |t| t.buffer_format_or_r8()),
                    _ => t.and_then(|t| t.buffer.as_ref()).map_or(0, |b| b.name.0),
                } as i32)
            }
            p if crate::api::compute::limit(p).is_some() => {
                i(crate::api::compute::limit(p).unwrap_or(0))
            }
            p if crate::api::geometry::limit(p).is_some() => {
                i(crate::api::geometry::limit(p).unwrap_or(0))
            }
            p if crate::api::tess::limit(p).is_some() => i(crate::api::tess::limit(p).unwrap_or(0)),
            // glPatchParameter state (GL 4.5 core table 23.67).
            gl::PATCH_VERTICES => i(f.patch.vertices as i32),
            gl::PATCH_DEFAULT_OUTER_LEVEL => Floats(f.patch.outer.to_vec()),
            gl::PATCH_DEFAULT_INNER_LEVEL => Floats(f.patch.inner.to_vec()),
            // 64-bit values (glGetInteger64v answers them in full).
            gl::TIMESTAMP => {
                i(i32::try_from(crate::api::query_object::now_ns()).unwrap_or(i32::MAX))
            }
            gl::MAX_SERVER_WAIT_TIMEOUT => i(i32::MAX),
            gl::VERTEX_ARRAY_BINDING => name(self.vertex_array.map(|v| v.0)),
            gl::CURRENT_PROGRAM => name(self.program.map(|p| p.0)),
            // The bound pipeline (GL 4.5 core table 23.31; Mesa answers the same).
            gl::PROGRAM_PIPELINE_BINDING => name(self.pipelines.bound()),
            gl::DRAW_FRAMEBUFFER_BINDING => name(self.draw_framebuffer.map(|f| f.0)),
            gl::READ_FRAMEBUFFER_BINDING => name(self.read_framebuffer.map(|f| f.0)),
            gl::RENDERBUFFER_BINDING => name(self.renderbuffer.map(|r| r.0)),
            gl::DRAW_BUFFER0 | gl::DRAW_BUFFER => i(
                match self.draw_framebuffer.and_then(|n| self.framebuffers.get(n)) {
                    Some(fb) => fb.draw_buffers.first().copied().unwrap_or(gl::NONE) as i32,
                    None => self.default_fb.draw_buffer as i32,
                },
            ),
            gl::READ_BUFFER => i(
                match self.read_framebuffer.and_then(|n| self.framebuffers.get(n)) {
                    Some(fb) => fb.read_buffer as i32,
                    None => self.default_fb.read_buffer as i32,
                },
            ),
            // KHR_debug state (GL 4.5 core table 23.85) and limits (table 23.86).
            gl::DEBUG_OUTPUT => b(self.errors.output),
            gl::DEBUG_OUTPUT_SYNCHRONOUS => b(f.debug_output_synchronous),
            gl::MAX_DEBUG_MESSAGE_LENGTH => i(error::MAX_DEBUG_MESSAGE_LENGTH as i32),
            gl::MAX_DEBUG_LOGGED_MESSAGES => i(error::MAX_DEBUG_LOGGED_MESSAGES as i32),
            gl::MAX_DEBUG_GROUP_STACK_DEPTH => i(error::MAX_DEBUG_GROUP_STACK_DEPTH as i32),
            gl::MAX_LABEL_LENGTH => i(error::MAX_LABEL_LENGTH as i32),
            gl::DEBUG_LOGGED_MESSAGES => i(self.errors.logged() as i32),
            gl::DEBUG_NEXT_LOGGED_MESSAGE_LENGTH => i(self.errors.next_length() as i32),
            gl::DEBUG_GROUP_STACK_DEPTH => i(self.errors.group_depth() as i32),
            _ => match f.stencil.get(pname) {
                Some(v) => i(v),
                None => return Err(GlError::InvalidEnum("glGet parameter")),
            },
        })
    }

    /// `get_value`, with an unknown `pname` reported by its number (apps rarely say which
    /// query failed; the debug message and `SOFTGL_DEBUG=gl` should).
    fn get_value_named(&mut self, pname: u32) -> GlResult<Value> {
        let r = self.get_value(pname);
        if let Err(e) = r {
            self.errors
                .record_detail(e, crate::gl::enums::describe(pname));
            return Ok(Value::Ints(Vec::new()));
        }
        r
    }

    /// The indexed state `pname`[`index`] (GL 4.5 core tables 23.5, 23.6, 23.33): integers
    /// as i64, or booleans: the blend state and colour mask of each draw buffer, and the one
    /// viewport softgl has.
    fn get_indexed(&mut self, pname: u32, index: u32) -> GlResult<Result<Vec<i64>, Vec<bool>>> {
        let check = |max: u32, what: &'static str| {
            if index < max {
                Ok(())
            } else {
                Err(GlError::InvalidValue(what))
            }
        };
        if let Some(v) = self.vertex_binding_indexed(pname, index) {
            return Ok(Ok(vec![v?]));
        }
        if let Some(v) = self.xfb_indexed(pname, index) {
            return Ok(Ok(vec![v?]));
        }
        if let Some(v) = self.image_binding_value(pname, index) {
            return Ok(Ok(vec![v?]));
        }
        match pname {
            gl::UNIFORM_BUFFER_BINDING | gl::UNIFORM_BUFFER_START | gl::UNIFORM_BUFFER_SIZE => {
                check(
                    limits::MAX_UNIFORM_BUFFER_BINDINGS,
                    "index past GL_MAX_UNIFORM_BUFFER_BINDINGS",
                )?;
                let b = &self.uniform_bindings[index as usize];
                Ok(Ok(vec![match pname {
                    gl::UNIFORM_BUFFER_BINDING => b.buffer.map_or(0, |n| n.0 as i64),
                    gl::UNIFORM_BUFFER_START => b.offset as i64,
                    _ => b.size.map_or(0, |s| s as i64),
                }]))
            }
            gl::SHADER_STORAGE_BUFFER_BINDING
            | gl::SHADER_STORAGE_BUFFER_START
            | gl::SHADER_STORAGE_BUFFER_SIZE => {
                check(
                    limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
                    "index past GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
                )?;
                let b = &self.storage_bindings[index as usize];
                Ok(Ok(vec![match pname {
                    gl::SHADER_STORAGE_BUFFER_BINDING => b.buffer.map_or(0, |n| n.0 as i64),
                    gl::SHADER_STORAGE_BUFFER_START => b.offset as i64,
                    _ => b.size.map_or(0, |s| s as i64),
                }]))
            }
            gl::ATOMIC_COUNTER_BUFFER_BINDING
            | gl::ATOMIC_COUNTER_BUFFER_START
            | gl::ATOMIC_COUNTER_BUFFER_SIZE => {
                check(
                    crate::ir::atomic_counter::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
                    "index past GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
                )?;
                let b = &self.atomic_counter_bindings[index as usize];
                Ok(Ok(vec![match pname {
                    gl::ATOMIC_COUNTER_BUFFER_BINDING => b.buffer.map_or(0, |n| n.0 as i64),
                    gl::ATOMIC_COUNTER_BUFFER_START => b.offset as i64,
                    _ => b.size.map_or(0, |s| s as i64),
                }]))
            }
            gl::BLEND_SRC_RGB
            | gl::BLEND_SRC_ALPHA
            | gl::BLEND_DST_RGB
            | gl::BLEND_DST_ALPHA
            | gl::BLEND_EQUATION_RGB
            | gl::BLEND_EQUATION_ALPHA
            | gl::COLOR_WRITEMASK => {
                check(limits::MAX_DRAW_BUFFERS, "index past GL_MAX_DRAW_BUFFERS")?;
                Ok(crate::api::blend::indexed_value(
                    &self.fixed,
                    pname,
                    index as usize,
                ))
            }
            gl::SAMPLE_MASK_VALUE => {
                check(
                    limits::MAX_SAMPLE_MASK_WORDS,
                    "index past GL_MAX_SAMPLE_MASK_WORDS",
                )?;
                Ok(Ok(vec![i64::from(self.fixed.sample_mask)]))
            }
            // Viewports are kept as specified (reals); integers round to the nearest.
            gl::VIEWPORT | gl::SCISSOR_BOX => Ok(Ok(self
                .viewport_indexed_value(pname, index)?
                .into_iter()
                .map(|v| v.round() as i64)
                .collect())),
            gl::SCISSOR_TEST => Ok(Err(vec![self.scissor_test_enabled(index)?])),
            // The indexed integer query rounds the depth range to the nearest integer, as
            // Mesa does and piglit's arb_viewport_array queries test checks against
            // glGetFloati_v; the non-indexed glGetIntegerv(GL_DEPTH_RANGE) keeps §2.2.2's
            // mapping of [0, 1] onto [0, 2^31 − 1].
            gl::DEPTH_RANGE => Ok(Ok(self
                .viewport_indexed_value(pname, index)?
                .into_iter()
                .map(|v| v.round() as i64)
                .collect())),
            p if crate::api::compute::indexed_limit(p, index).is_some() => {
                match crate::api::compute::indexed_limit(p, index) {
                    Some(r) => Ok(Ok(vec![r?])),
                    None => unreachable!("checked by the guard"),
                }
            }
            _ => Err(GlError::BadEnum("indexed glGet parameter", pname)),
        }
    }

    pub(crate) fn try_get_integer64i_v(&mut self, pname: u32, index: u32) -> GlResult<Vec<i64>> {
        Ok(match self.get_indexed(pname, index)? {
            Ok(v) => v,
            Err(b) => b.into_iter().map(i64::from).collect(),
        })
    }

    pub(crate) fn try_get_integeri_v(&mut self, pname: u32, index: u32) -> GlResult<Vec<i32>> {
        let v = self.try_get_integer64i_v(pname, index)?;
        Ok(v.into_iter()
            .map(|x| x.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
            .collect())
    }

    pub(crate) fn try_get_booleani_v(&mut self, pname: u32, index: u32) -> GlResult<Vec<bool>> {
        Ok(match self.get_indexed(pname, index)? {
            Ok(v) => v.into_iter().map(|x| x != 0).collect(),
            Err(b) => b,
        })
    }

    pub(crate) fn try_get_floati_v(&mut self, pname: u32, index: u32) -> GlResult<Vec<f32>> {
        if matches!(pname, gl::VIEWPORT | gl::DEPTH_RANGE) {
            return Ok(self
                .viewport_indexed_value(pname, index)?
                .into_iter()
                .map(|v| v as f32)
                .collect());
        }
        Ok(self
            .try_get_integer64i_v(pname, index)?
            .into_iter()
            .map(|x| x as f32)
            .collect())
    }

    pub(crate) fn try_is_enabledi(&mut self, cap: u32, index: u32) -> GlResult<bool> {
        match cap {
            gl::BLEND if index < limits::MAX_DRAW_BUFFERS => {
                Ok(self.fixed.blend[index as usize].enabled)
            }
            gl::SCISSOR_TEST => self.scissor_test_enabled(index),
            gl::BLEND => Err(GlError::InvalidValue("index out of range")),
            _ => Err(GlError::BadEnum("indexed capability", cap)),
        }
    }

    pub(crate) fn try_get_integerv(&mut self, pname: u32) -> GlResult<Vec<i32>> {
        self.get_value_named(pname).map(|v| match v {
            Value::Ints(v) => v,
            Value::Bools(v) => v.into_iter().map(i32::from).collect(),
            Value::Floats(v) => {
                let colour = matches!(
                    pname,
                    gl::COLOR_CLEAR_VALUE
                        | gl::BLEND_COLOR
                        | gl::DEPTH_RANGE
                        | gl::DEPTH_CLEAR_VALUE
                );
                v.into_iter()
                    .map(|x| {
                        if colour {
                            // GL 4.5 core §2.2.2: [-1, 1] maps linearly onto the integer range.
                            (x.clamp(-1.0, 1.0) as f64 * i32::MAX as f64).round() as i32
                        } else {
                            x.round() as i32
                        }
                    })
                    .collect()
            }
        })
    }

    pub(crate) fn try_get_integer64v(&mut self, pname: u32) -> GlResult<Vec<i64>> {
        Ok(match pname {
            // GL 4.5 core §4.3: the time after the commands before have reached the GL,
            // not waiting for them to run.
            gl::TIMESTAMP => vec![crate::api::query_object::now_ns().min(i64::MAX as u64) as i64],
            gl::MAX_SERVER_WAIT_TIMEOUT => vec![crate::api::sync::MAX_SERVER_WAIT_TIMEOUT],
            // Every 32-bit index value is drawn (GL 4.5 core §10.3.7; the minimum is 2^24-1).
            gl::MAX_ELEMENT_INDEX => vec![u32::MAX as i64],
            _ => self
                .try_get_integerv(pname)?
                .into_iter()
                .map(i64::from)
                .collect(),
        })
    }

    pub(crate) fn try_get_floatv(&mut self, pname: u32) -> GlResult<Vec<f32>> {
        self.get_value_named(pname).map(|v| match v {
            Value::Ints(v) => v.into_iter().map(|x| x as f32).collect(),
            Value::Bools(v) => v.into_iter().map(|x| x as i32 as f32).collect(),
            Value::Floats(v) => v,
        })
    }

    pub(crate) fn try_get_booleanv(&mut self, pname: u32) -> GlResult<Vec<bool>> {
        self.get_value_named(pname).map(|v| match v {
            Value::Ints(v) => v.into_iter().map(|x| x != 0).collect(),
            Value::Bools(v) => v,
            Value::Floats(v) => v.into_iter().map(|x| x != 0.0).collect(),
        })
    }
}
