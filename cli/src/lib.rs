//! softgl-cli: the `softgl` command line's library half, the parts its binary
//! (`src/main.rs`) and the corpus tests (`tests/conformance.rs`) share. Everything here
//! drives the driver through its public API (`softgl::Context`) only; the driver itself knows
//! nothing of the CLI, clap or PNG files.
//!
//! | module | owns |
//! |---|---|
//! | [`shader_test`] | the `.shader_test` scene format (piglit's `shader_runner`) and its runner |
//! | [`demo`] | the built-in demo scene (256 bindless-textured quads) `softgl` renders by default |

pub mod demo;
pub mod shader_test;
