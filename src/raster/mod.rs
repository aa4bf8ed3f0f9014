//! The rasterizer (DESIGN.md §5): vertex fetch and shading, primitive assembly, clipping,
//! setup in fixed point, binning into 64×64 tiles, tile execution on a private thread pool,
//! per-fragment operations.
//!
//! The API thread calls `draw` and `clear`; each draw is shaded, clipped, set up and binned
//! at once (in parallel chunks for large draws) into the scene, which collects work until
//! `flush`. A flush runs the non-empty tiles on the private pool, one worker per tile, each
//! tile's commands in API order: pixels do not depend on the thread count.
//!
//! | file | owns |
//! |---|---|
//! | `draw.rs` | the draw snapshot the API hands over |
//! | `fetch.rs` | vertex fetch: indices, divisors, attribute type conversion |
//! | `vertex.rs` | which vertices a draw shades, the vertex shader calls |
//! | `restart.rs` | primitive restart and adjacency modes rewritten into plain lists |
//! | `geometry.rs` | the geometry stage: input primitives, vertex + geometry shader runs, emitted strips |
//! | `tess.rs` | the tessellation stages: patches, vertex + control shader runs, the tessellator, the evaluation shader per generated vertex |
//! | `feedback.rs` | transform feedback capture: the last vertex stage's output words per primitive, in draw order |
//! | `front.rs` | primitive assembly, the per-draw front end and its parallel chunks, polygon mode |
//! | `points.rs` | point setup: the square of a point as two triangles, gl_PointCoord |
//! | `lines.rs` | line setup: the parallelogram of a segment as two triangles |
//! | `multisample.rs` | sample positions, sample planes, the per-sample loop of draws and clears |
//! | `clip.rs` | near/far/w clipping of polygons and segments, the guard band |
//! | `fixed.rs` | fixed point, edge functions, the top-left rule |
//! | `setup.rs` | viewport transform, facing and culling, plane equations |
//! | `scene.rs` | tiles' bins of commands, reused across frames |
//! | `tile.rs` | coverage, interpolation, texel pointers, the fragment variant call per quad (a Rust reference path for interpreted shaders), clears |
//! | `ops.rs` | reference depth functions, blend factors and equations, format conversion |

pub mod clip;
pub mod draw;
pub mod feedback;
pub mod fetch;
pub mod fixed;
pub mod front;
pub mod geometry;
pub mod lines;
pub mod multisample;
pub mod ops;
pub mod points;
pub mod restart;
pub mod scene;
pub mod setup;
pub mod tess;
pub mod tile;
pub mod vertex;

#[cfg(test)]
mod tests;

pub use draw::*;
pub use ops::ClearColor;

use std::sync::Arc;

use rayon::prelude::*;

use scene::{Command, Scene, TILE, TILE_SHIFT};

use crate::sampler::Flushed;

/// `SOFTGL_DEBUG` switches this module reads.
#[derive(Copy, Clone, Debug, Default)]
struct Debug {
    scene: bool,
    setup: bool,
}

impl Debug {
    fn from_env() -> Debug {
        let v = std::env::var("SOFTGL_DEBUG").unwrap_or_default();
        let has = |k: &str| v.split(',').any(|s| s.trim() == k);
        Debug {
            scene: has("scene"),
            setup: has("setup"),
        }
    }
}

/// Owns the scene (queued draws and clears, binned into tiles) and the private worker pool.
pub struct Rasterizer {
    threads: usize,
    /// None only when the OS refused to start threads; work then runs on the caller.
    pool: Option<rayon::ThreadPool>,
    scene: Scene,
    /// Non-empty tiles of the flush in progress (kept to reuse its storage).
    active: Vec<u32>,
    front: front::FrontScratch,
    debug: Debug,
}

impl Rasterizer {
    /// A rasterizer with a private pool of `threads` workers (`SOFTGL_THREADS` picks the
    /// default at context creation, DESIGN.md §5).
    pub fn new(threads: usize) -> Self {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("softgl-raster-{i}"))
            .build()
            .ok();
        Rasterizer {
            threads,
            pool,
            scene: Scene::default(),
            active: Vec::new(),
            front: front::FrontScratch::default(),
            debug: Debug::from_env(),
        }
    }
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Queues a draw into the scene: shades, clips, sets up and bins it now. A scene that
    /// fills up (memory cap, DESIGN.md §5) is flushed on the way, even mid-draw.
    pub fn draw(&mut self, call: DrawCall) {
        if call.target.samples == 0 {
            return self.draw_plane(call);
        }
        for c in multisample::per_sample_draws(call) {
            self.draw_plane(c);
        }
    }
    /// `draw` into a single-sample target (or one sample plane of a multisample one).
    fn draw_plane(&mut self, call: DrawCall) {
        let entries = self.scene.entries;
        let (pool, active, debug, threads) =
            (&self.pool, &mut self.active, self.debug, self.threads);
        let mut flush = |scene: &mut Scene| run_scene(scene, pool.as_ref(), threads, active, debug);
        let tris = front::bin_draw(
            &mut self.scene,
            call,
            self.pool.as_ref(),
            &mut self.front,
            &mut flush,
        );
        if self.debug.setup {
            eprintln!(
                "softgl setup: draw -> {tris} triangles, {} bin entries queued",
                self.scene.entries.saturating_sub(entries)
            );
        }
    }
    /// Queues a clear into the scene.
    pub fn clear(&mut self, call: ClearCall) {
        if call.target.samples == 0 {
            return self.clear_plane(call);
        }
        for c in multisample::per_sample_clears(call) {
            self.clear_plane(c);
        }
    }
    /// `clear` of a single-sample target (or one sample plane of a multisample one).
    fn clear_plane(&mut self, call: ClearCall) {
        let (w, h) = (call.target.width, call.target.height);
        if w == 0 || h == 0 {
            return;
        }
        self.scene.cover(w, h);
        let i = self.scene.clears.len() as u32;
        self.scene.clears.push(Arc::new(call));
        let tx = (w as usize).div_ceil(TILE as usize);
        let ty = (h as usize).div_ceil(TILE as usize);
        // Only the tiles the scissor box touches.
        let (mut x0, mut y0, mut x1, mut y1) = (0, 0, tx - 1, ty - 1);
        if let Some(s) = self.scene.clears[i as usize].scissor {
            let Some(r) = setup::scissor_rect(s) else {
                return;
            };
            let clamp = |v: i32, n: usize| (v.max(0) >> TILE_SHIFT).min(n as i32 - 1) as usize;
            if r[2] < 0 || r[3] < 0 {
                return;
            }
            (x0, y0, x1, y1) = (
                clamp(r[0], tx),
                clamp(r[1], ty),
                clamp(r[2], tx),
                clamp(r[3], ty),
            );
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.scene.push(x, y, Command::Clear(i));
            }
        }
    }
    /// Whether work is queued.
    pub fn pending(&self) -> bool {
        !self.scene.is_empty()
    }
    /// Runs everything queued; on return every target image holds the results, and the
    /// token says so to code that writes images queued draws may share.
    pub fn flush(&mut self) -> Flushed {
        run_scene(
            &mut self.scene,
            self.pool.as_ref(),
            self.threads,
            &mut self.active,
            self.debug,
        );
        // SAFETY: `run_scene` returns once every tile of the scene has run (the pool's
        // `install`/scope joins all workers) and the scene is empty: no worker touches any
        // image until the next `draw` or `clear`.
        unsafe { Flushed::assume() }
    }
}

/// Runs the scene's non-empty tiles (one worker per tile) and empties it.
fn run_scene(
    scene: &mut Scene,
    pool: Option<&rayon::ThreadPool>,
    threads: usize,
    active: &mut Vec<u32>,
    debug: Debug,
) {
    if scene.is_empty() {
        return;
    }
    active.clear();
    active.extend(
        scene
            .bins
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.is_empty())
            .map(|(i, _)| i as u32),
    );
    if debug.scene {
        eprintln!(
            "softgl scene: {} draws, {} clears, {} triangles, {} bin entries, {}/{} tiles busy, {} threads",
            scene.draws.len(),
            scene.clears.len(),
            scene.triangles,
            scene.entries,
            active.len(),
            scene.bins.len(),
            threads
        );
    }
    let shared = &*scene;
    match pool {
        Some(pool) if threads > 1 => pool.install(|| {
            // One tile per task: a worker owns a whole tile (DESIGN.md §5).
            active
                .par_iter()
                .with_max_len(1)
                .for_each_init(tile::TileScratch::default, |s, &t| {
                    // SAFETY: `active` lists each tile once and each item goes to one task,
                    // so one worker runs each tile; the API thread waits here, so it cannot
                    // touch the targets meanwhile.
                    unsafe { tile::run_tile(shared, t as usize, s) }
                });
        }),
        _ => {
            let mut s = tile::TileScratch::default();
            for &t in active.iter() {
                // SAFETY: tiles run one after another on this thread alone.
                unsafe { tile::run_tile(shared, t as usize, &mut s) };
            }
        }
    }
    scene.reset();
}

impl Drop for Rasterizer {
    /// Queued work still reaches its targets (they may be shared with the API).
    fn drop(&mut self) {
        let _ = self.flush();
    }
}
