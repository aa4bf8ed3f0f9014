//! The scene: everything queued since the last flush, binned into 64×64 tiles. Each tile's
//! bin lists its commands (clears and triangles) in API order; draws are `Arc`-shared by the
//! tiles they touch. Bin storage is kept across flushes, so memory stays flat from frame to
//! frame (DESIGN.md §5).

use std::sync::Arc;

use super::draw::{ClearCall, DrawCall};
use super::setup::{Plane, Triangle};

/// Tile size in pixels (DESIGN.md §5).
pub const TILE: i32 = 64;
/// log2(TILE).
pub const TILE_SHIFT: u32 = 6;

/// A draw after the front end: its snapshot, set-up triangles and their varying planes.
pub struct BinnedDraw {
    /// Shared by the windows of a huge draw (`front.rs`).
    pub call: Arc<DrawCall>,
    pub tris: Vec<Triangle>,
    pub planes: Vec<Plane>,
    /// Depth test and write before the fragment shader (GL 4.5 core §15.2.4 early tests):
    /// when the shader neither writes depth nor discards, or asks for it.
    pub early_depth: bool,
    /// What every tile of the draw derives alike (its fragment variant and tests), filled
    /// by the first tile that runs the draw.
    pub shared: std::sync::OnceLock<super::tile::DrawShared>,
}

/// One entry of a tile's bin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `Scene::clears[i]`.
    Clear(u32),
    /// Triangle `tri` of `Scene::draws[draw]`.
    Tri { draw: u32, tri: u32 },
}

/// Queued work, binned.
#[derive(Default)]
pub struct Scene {
    pub draws: Vec<Arc<BinnedDraw>>,
    pub clears: Vec<Arc<ClearCall>>,
    /// `bins[ty * tiles_x + tx]`.
    pub bins: Vec<Vec<Command>>,
    pub tiles_x: usize,
    pub tiles_y: usize,
    /// Bin entries queued (the memory cap flush point counts these).
    pub entries: usize,
    /// Triangles queued.
    pub triangles: usize,
    /// (entries, triangles) limits replacing `MAX_ENTRIES` / `MAX_TRIANGLES` (tests).
    pub cap: Option<(usize, usize)>,
}

/// Bin entries (12 bytes each) beyond which the scene is full: the memory-cap flush point of
/// DESIGN.md §5.
const MAX_ENTRIES: usize = 8 << 20;
/// Triangles (about 130 bytes each with their planes) beyond which the scene is full.
const MAX_TRIANGLES: usize = 2 << 20;

impl Scene {
    /// Whether anything is queued.
    pub fn is_empty(&self) -> bool {
        self.draws.is_empty() && self.clears.is_empty()
    }

    /// Whether the scene holds enough to flush before queuing more (bounds memory).
    pub fn is_full(&self) -> bool {
        let (entries, triangles) = self.cap.unwrap_or((MAX_ENTRIES, MAX_TRIANGLES));
        self.entries > entries || self.triangles > triangles
    }

    /// Grows the tile grid to cover a `width × height` target, keeping queued bins in place.
    pub fn cover(&mut self, width: u32, height: u32) {
        let tx = (width as usize).div_ceil(TILE as usize);
        let ty = (height as usize).div_ceil(TILE as usize);
        if tx <= self.tiles_x && ty <= self.tiles_y {
            return;
        }
        let (nx, ny) = (tx.max(self.tiles_x), ty.max(self.tiles_y));
        let mut old = std::mem::take(&mut self.bins);
        let mut bins: Vec<Vec<Command>> = (0..nx * ny).map(|_| Vec::new()).collect();
        for y in 0..self.tiles_y {
            for x in 0..self.tiles_x {
                bins[y * nx + x] = std::mem::take(&mut old[y * self.tiles_x + x]);
            }
        }
        self.bins = bins;
        self.tiles_x = nx;
        self.tiles_y = ny;
    }

    /// Appends a command to tile (tx, ty), which `cover` made exist.
    #[inline]
    pub fn push(&mut self, tx: usize, ty: usize, cmd: Command) {
        if tx < self.tiles_x && ty < self.tiles_y {
            self.bins[ty * self.tiles_x + tx].push(cmd);
            self.entries += 1;
        }
    }

    /// Drops the queued work, keeping bin capacity for the next frame.
    pub fn reset(&mut self) {
        self.draws.clear();
        self.clears.clear();
        for b in &mut self.bins {
            b.clear();
        }
        self.entries = 0;
        self.triangles = 0;
    }

    /// The pixel rect of tile index `t` (inclusive).
    pub fn tile_rect(&self, t: usize) -> [i32; 4] {
        let x = (t % self.tiles_x.max(1)) as i32 * TILE;
        let y = (t / self.tiles_x.max(1)) as i32 * TILE;
        [x, y, x + TILE - 1, y + TILE - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_keeps_bins_in_place_and_reset_keeps_capacity() {
        let mut s = Scene::default();
        s.cover(100, 70);
        assert_eq!((s.tiles_x, s.tiles_y), (2, 2));
        s.push(1, 1, Command::Clear(0));
        s.push(5, 0, Command::Clear(1)); // outside: dropped
        s.cover(200, 10);
        assert_eq!((s.tiles_x, s.tiles_y), (4, 2));
        assert_eq!(s.bins[4 + 1], vec![Command::Clear(0)]);
        assert_eq!(s.entries, 1);
        assert_eq!(s.tile_rect(5), [64, 64, 127, 127]);
        s.reset();
        assert!(s.bins[5].is_empty() && s.bins[5].capacity() > 0);
    }
}
