//! softgl: a software OpenGL 4.5 driver with ARB_bindless_texture.
//!
//! The pipeline, end to end (DESIGN.md §1, ARCHITECTURE.md): the [`api`] state machine
//! validates a draw and snapshots it; GLSL source goes through the [`glsl`] front end into the
//! scalarized, structured [`ir`], which the [`jit`] turns into Cranelift code running four
//! invocations per call; the [`raster`] stage shades vertices, clips, sets up and bins
//! triangles into 64×64 tiles and runs the tiles on a private thread pool; texture lookups
//! go through the [`sampler`]'s global descriptor table, bound or bindless alike.
//!
//! | module | owns |
//! |---|---|
//! | [`api`] | `Context`: GL objects, state, errors, draw validation, bindless handle API |
//! | [`glsl`] | preprocessor, parser, semantic checks, lowering to IR, info-log diagnostics |
//! | [`ir`] | the shader IR, its validation, dump, reference interpreter and linking |
//! | [`jit`] | IR → Cranelift, the `#[repr(C)]` ABI, the variant cache |
//! | [`raster`] | vertex fetch and shading, clipping, setup, binning, tiles, per-fragment ops |
//! | [`sampler`] | images and formats, filtering, the descriptor table and resident sets |
//! | [`gl`] | the leaf vocabulary: GL enum values and the typed enums lower layers take |
//! | [`math`] | the leaf: deterministic maths built-ins shared by ir, jit and sampler |
//! | [`extensions`] | the extension lists of GL_EXTENSIONS and of GLSL's `#extension` |
//!
//! The command line (`softgl run`, `softgl info`, the demo) and the `.shader_test` runner are
//! the `softgl-cli` crate (`cli/`); the EGL driver is `softgl-egl` (`driver/`). Both use this
//! crate's public API only.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod extensions;
pub mod gl;
pub mod glsl;
pub mod ir;
pub mod jit;
pub mod math;
pub mod raster;
pub mod sampler;

pub use api::gl::{
    core_command_count, current_context, entry_point_names, get_proc_address, make_current,
    missing_entry_points, SharedContext,
};
pub use api::Context;
pub use api::{supported_version, ContextAttribs, ContextError, Profile, Surface};
pub use gl::enums;
