//! The shader IR: scalarized, structured, one inlined function per stage (see `module.rs`
//! for its shape and why). The front end produces it, the JIT compiles it, and the
//! interpreter runs it as the oracle the JIT is tested against.
//!
//! | file | owns |
//! |---|---|
//! | `module.rs` | the data types |
//! | `validate.rs` | the invariants (`validate`), the operand/result kind table of every op |
//! | `dump.rs` | the stable text form (`dump`) for snapshots and `SOFTGL_DUMP=ir` |
//! | `interp.rs` | the reference interpreter (`interp::run`) and the exact semantics of every op |
//! | `builder.rs` | `Builder` for writing modules by hand; `random_module` for differential tests |
//! | `fold.rs` | constant folding and dead-assignment removal, the front end's last step |
//! | `atomic_counter.rs` | atomic counters as hidden storage blocks: names, limits, link rules |
//! | `compute.rs` | compute work groups: `main` split at its barriers into regions and a plan |
//! | `geometry.rs` | geometry shaders: layouts, EmitVertex/EndPrimitive rewritten to array stores, the output record, the vertex → geometry link |
//! | `subroutine.rs` | shader subroutines: functions, uniforms, locations, limits, the hidden selection uniform |
//! | `tess.rs` | tessellation: layouts, the fixed-function tessellator, the control shader's invocations in one lane (barrier regions), the VS → TCS → TES links |

#![forbid(unsafe_code)]

pub mod atomic_counter;
pub mod compute;
pub mod fold;
pub mod geometry;
pub mod link;
pub mod subroutine;
pub mod tess;

pub mod module;

// Tools over the IR: validation, text dump, the reference interpreter, the builder.
pub mod builder;
pub mod dump;
pub mod interp;
pub mod validate;

pub use dump::dump;
pub use module::*;
pub use validate::{validate, ValidationError};
