//! The GL state machine (DESIGN.md §2 `src/api/`): `Context` with its object namespaces, GL
//! errors and KHR_debug messages, draw validation (dirty bits → derived state → draw
//! snapshot), and the ARB_bindless_texture handle API.
//!
//! Entry points follow one convention: `glFooBar` is `Context::foo_bar`, snake_case, GL
//! argument order, Rust types (GLenum → u32, GLint/GLsizei → i32, GLintptr/GLsizeiptr →
//! isize, GLuint64 → u64, ...); arrays in are slices, out-parameters are return values,
//! `Gen*`/`Create*` return `Vec<u32>`, buffer offsets are `usize`.
//!
//! | file | owns |
//! |---|---|
//! | `context.rs` | `Context`: construction, error/debug plumbing, dirty bits, fixed-function state |
//! | `dispatch.rs` | the one entry path: share-group swap, panic containment, error recording; `gl_commands!` |
//! | `error.rs` | `GlError` (1:1 with GL codes), first-error semantics, the debug log |
//! | `names.rs` | name tables (counter over all of `u32`, hash map) and typed names |
//! | `buffer.rs` | buffer objects, mapping, uniform buffer binding points |
//! | `program_binary.rs` | glHint, shader precision, (no) binaries, glProgramParameteri, glGetUniformdv |
//! | `buffer_dsa.rs` | glNamedBuffer*, buffer copies and clears, 64-bit/pointer queries, multi-bind |
//! | `vertex_array.rs` | VAOs: attribute formats, vertex buffer binding points, their DSA forms |
//! | `attrib_value.rs` | current generic attribute values (glVertexAttrib*) and their queries |
//! | `program.rs` | shaders, programs, linking, uniforms and their type checks |
//! | `program_stage.rs` | glGetProgramStageiv: a stage's subroutine counts |
//! | `subroutine.rs` | subroutine queries, the context's per-stage selection and its resets, its draw-time words |
//! | `pipeline.rs` | program pipeline objects, glCreateShaderProgramv, pipeline validation, the composition of separable programs' stages into one draw program |
//! | `texture.rs` | 2D textures, sampler objects, texture units, completeness |
//! | `texture_view.rs` | glTextureView: views sharing their original's storage, TEXTURE_VIEW_* |
//! | `pixels.rs` | pixel unpack/pack and mipmap generation on the API thread |
//! | `framebuffer.rs` | framebuffers, renderbuffers, completeness, ReadPixels |
//! | `framebuffer_params.rs` | glFramebufferParameteri and its getters: FRAMEBUFFER_DEFAULT_*, framebuffers with no attachments |
//! | `invalidate.rs` | glInvalidate*: validated, contents kept |
//! | `multisample.rs` | sample positions, the sample mask, sample-count queries, GL_SAMPLES |
//! | `clear_texture.rs` | glClearTexImage / glClearTexSubImage (ARB_clear_texture) |
//! | `compressed_1d.rs` | glCompressedTex(ture)(Sub)Image1D: validated, always an error (no 1D compressed format) |
//! | `copy_image.rs` | glCopyImageSubData: raw texel copies between levels and renderbuffers |
//! | `blit.rs` | glBlitFramebuffer: validation, coordinate mapping, colour conversion, depth/stencil copies |
//! | `bindless.rs` | ARB_bindless_texture handles and residency |
//! | `draw.rs` | draw validation and the `raster::DrawCall` snapshot, glClear |
//! | `compute.rs` | compute programs, glDispatchCompute(Indirect), work group queries and limits |
//! | `image_unit.rs` | image units: glBindImageTexture(s), the IMAGE_BINDING_* queries, the image formats (table 8.26) |
//! | `geometry.rs` | geometry programs: link, draw-mode and output-size checks, GEOMETRY_* queries and limits |
//! | `tess.rs` | tessellation programs: link, glPatchParameter*, the GL_PATCHES draw rule, TESS_* queries and limits |
//! | `transform_feedback.rs` | transform feedback: varyings and their layout, objects and bindings, Begin/End/Pause/Resume, capture of draws, DrawTransformFeedback |
//! | `query.rs` | glGetString/Integerv/Floatv/Booleanv |
//! | `storage_buffer.rs` | shader storage buffers at draw time (copy, write-back, what is deterministic), glShaderStorageBlockBinding, glMemoryBarrier |
//! | `stencil.rs` | stencil state: glStencilFunc/Op/Mask (and Separate), their glGet values |
//! | `query_object.rs` | query objects (occlusion, primitives, timers), query buffers, conditional rendering |
//! | `sync.rs` | fence sync objects and waiting on them |
//! | `robustness.rs` | KHR_robustness: reset strategy and status, lost context, loop-budget reports, glReadnPixels |
//! | `share.rs` | share groups: the shared objects and the lock that guards them |
//! | `surface.rs` | `Surface`: a pbuffer's images, the default framebuffer's storage |
//! | `version.rs` | the version policy, context attributes and profiles |
//! | `gl/` | the C ABI: `extern "system"` entry points generated from gl.xml, current context, `get_proc_address` |

// `deny`, not `forbid`: the tests' stand-in shader code implements the unsafe
// `ShaderCode::call` (it has no unsafe operations).
#![deny(unsafe_code)]

pub mod attrib_value;
pub mod bindless;
pub mod bindless_image;
pub mod blend;
mod blit;
pub mod buffer;
pub mod buffer_dsa;
pub mod clear_texture;
pub mod compressed;
pub(crate) mod compressed_1d;
pub mod compute;
pub mod context;
pub mod copy_image;
pub(crate) mod dispatch;
pub mod draw;

pub mod error;
pub mod framebuffer;
pub(crate) mod framebuffer_dsa;
pub(crate) mod framebuffer_params;
pub mod geometry;
pub mod image_unit;
pub mod invalidate;
pub mod multisample;
// The C ABI needs raw pointers (DESIGN.md §2 "the C driver"); every unsafe block in it
// carries a `// SAFETY:` comment. The rest of `api/` stays free of unsafe code.
#[allow(unsafe_code)]
pub mod gl;
pub mod names;
pub mod pipeline;
pub mod pixels;
pub mod program;
pub mod program_binary;
pub mod program_resource;
pub(crate) mod program_stage;
pub(crate) mod proxy;
pub mod query;
pub mod query_object;
pub mod robustness;
pub mod share;
pub(crate) mod stage_refs;
pub mod stencil;
pub(crate) mod storage_buffer;
pub(crate) mod subroutine;
pub mod surface;
pub mod sync;
pub mod tess;
pub mod texture;
pub mod texture_buffer;
pub(crate) mod texture_dsa;
pub(crate) mod texture_view;
pub mod transform_feedback;
pub mod version;
pub mod vertex_array;
pub mod viewport;

#[cfg(test)]
mod tests;

pub use context::{default_threads, Context};
pub use error::{DebugMessage, GlError};
pub use names::{
    BufferName, FramebufferName, ProgramObjectName, RenderbufferName, SamplerName, TextureName,
    VertexArrayName,
};
pub use surface::Surface;
pub use version::{supported_version, ContextAttribs, ContextError, Profile};
