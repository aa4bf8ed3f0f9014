//! The `.shader_test` scene runner: parses the format GL test suites use (piglit's
//! `shader_runner`) and runs it on a [`softgl::Context`]. The CLI (`softgl run`) and the
//! corpus tests (`tests/conformance.rs`) both go through it.
//!
//! | file | owns |
//! |---|---|
//! | `parse.rs` | the format: sections, requirements, commands, probes → [`parse::Script`] |
//! | `gl_names.rs` | `GL_*` enum names → values (generated from gl.xml by `cli/build.rs`) |
//! | `pixels.rs` | texture images of the `texture` commands, `draw rect` vertices, probe comparison |
//! | `png_out.rs` | writing a framebuffer read back from GL (bottom-up RGBA8) as a PNG |
//! | `run.rs` | running a [`parse::Script`] on a `Context`: setup, commands, probes, outcome |
//!
//! The format, and the commands softgl adds to piglit's, are documented in `parse.rs`.

pub mod gl_names;
pub mod parse;
pub mod pixels;
pub mod png_out;
pub mod run;

pub use parse::{parse, ParseError, Script};
