//! The shader IR: scalarized, structured, one inlined function per stage (see `module.rs`
//! for its shape and why). The front end produces it, the JIT compiles it, and the
//! interpreter runs it as the oracle the JIT is tested against.
//!
//! | file | owns |
//! |---|---|
//! | `module.rs` | the data types |
//! | `math.rs` | deterministic float built-ins shared by the interpreter and the JIT |

#![forbid(unsafe_code)]

pub mod link;
pub mod math;
pub mod module;

pub use module::*;
