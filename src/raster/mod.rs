//! The rasterizer (DESIGN.md §5): vertex fetch and shading, primitive assembly, clipping,
//! setup in fixed point, binning into 64×64 tiles, tile execution on a private thread pool,
//! per-fragment operations.
//!
//! | file | owns |
//! |---|---|
//! | `draw.rs` | the draw snapshot the API hands over |

pub mod draw;

pub use draw::*;

/// Owns the scene (queued draws and clears, binned into tiles) and the private worker pool.
///
/// INTERIM: the rasterizer is being built; until then queued work is dropped at flush.
pub struct Rasterizer {
    threads: usize,
    queued: usize,
}

impl Rasterizer {
    /// A rasterizer with a private pool of `threads` workers (`SOFTGL_THREADS` picks the
    /// default at context creation, DESIGN.md §5).
    pub fn new(threads: usize) -> Self {
        Rasterizer {
            threads: threads.max(1),
            queued: 0,
        }
    }
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Queues a draw into the scene.
    pub fn draw(&mut self, call: DrawCall) {
        drop(call);
        self.queued += 1;
    }
    /// Queues a clear into the scene.
    pub fn clear(&mut self, call: ClearCall) {
        drop(call);
        self.queued += 1;
    }
    /// Whether work is queued.
    pub fn pending(&self) -> bool {
        self.queued > 0
    }
    /// Runs everything queued; on return every target image holds the results.
    pub fn flush(&mut self) {
        self.queued = 0;
    }
}
