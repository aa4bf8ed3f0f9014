//! The rasterizer (DESIGN.md §5): vertex fetch and shading, primitive assembly, clipping,
//! setup in fixed point, binning into 64×64 tiles, tile execution on a private thread pool,
//! per-fragment operations.
//!
//! | file | owns |
//! |---|---|
//! | `draw.rs` | the draw snapshot the API hands over |

pub mod draw;

pub use draw::*;
