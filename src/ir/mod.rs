//! The shader IR: scalarized, structured, one inlined function per stage (see `module.rs`
//! for its shape and why). The front end produces it, the JIT compiles it, and the
//! interpreter runs it as the oracle the JIT is tested against.
//!
//! | file | owns |
//! |---|---|
//! | `module.rs` | the data types |

#![forbid(unsafe_code)]

pub mod module;

pub use module::*;
