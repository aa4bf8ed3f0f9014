//! The scene: everything queued since the last flush, binned into 64×64 tiles. Each tile's
//! bin lists its commands (clears and triangles) in API order; draws are `Arc`-shared by the
//! tiles they touch. Bin storage is kept across flushes, and so are the triangle and plane
//! lists of big draws (`spare`), so memory stays flat from frame to frame (DESIGN.md §5)
//! and is not handed back to the system and faulted in again every frame.

use std::sync::Arc;

use super::draw::{ClearCall, DrawCall};
use super::setup::{Plane, Triangle};
use crate::sampler::Image;

/// Adds the roomy ones of `lists`, emptied, to `spare`, which keeps the `SPARE_LISTS`
/// roomiest, roomiest last.
fn keep_spare_lists(
    spare: &mut Vec<(Vec<Triangle>, Vec<Plane>)>,
    lists: impl Iterator<Item = (Vec<Triangle>, Vec<Plane>)>,
) {
    for (mut tris, mut planes) in lists {
        if tris.capacity() >= SPARE_MIN_TRIANGLES {
            tris.clear();
            planes.clear();
            spare.push((tris, planes));
        }
    }
    spare.sort_by_key(|(t, _)| t.capacity());
    let extra = spare.len().saturating_sub(SPARE_LISTS);
    spare.drain(..extra);
}

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
    /// The layer of a layered framebuffer these triangles go to (`Selection::layers`),
    /// when a geometry shader picked it with gl_Layer; `None`: the target's own images.
    pub layer: Option<u32>,
}

/// The images a binned draw writes: per draw buffer, depth, stencil.
pub struct DrawImages<'a> {
    pub colors: &'a [Option<Arc<Image>>],
    pub depth: Option<&'a Arc<Image>>,
    pub stencil: Option<&'a Arc<Image>>,
}

impl BinnedDraw {
    /// Its layer's images (GL 4.5 core §9.8), or the target's.
    pub fn images(&self) -> DrawImages<'_> {
        let t = &self.call.target;
        let layer = self.layer.and_then(|l| {
            let sel = self.call.select.as_deref()?;
            sel.layers.get(l as usize)
        });
        match layer {
            Some(l) => DrawImages {
                colors: &l.colors,
                depth: l.depth.as_ref(),
                stencil: l.stencil.as_ref(),
            },
            None => DrawImages {
                colors: &t.colors,
                depth: t.depth.as_ref(),
                stencil: t.stencil.as_ref(),
            },
        }
    }
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
    /// Emptied triangle and plane lists of big draws of earlier scenes, for the next draws
    /// (`take_lists`). Without them, 200k triangles a frame (`tris_200k_depth`) grew fresh
    /// lists by doubling every frame: 7,000 page faults and 28 MB of copies per frame, 14–19%
    /// of its one-thread profile in the kernel.
    spare: Vec<(Vec<Triangle>, Vec<Plane>)>,
}

/// Lists kept at most in `Scene::spare`: a frame's few big draws.
const SPARE_LISTS: usize = 4;
/// Triangles a list must have room for to be kept: smaller ones are cheap to allocate
/// (the allocator's own free lists serve them without page faults).
const SPARE_MIN_TRIANGLES: usize = 4096;

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

    /// Empty triangle and plane lists for a new draw: the roomiest kept ones, if any.
    pub fn take_lists(&mut self) -> (Vec<Triangle>, Vec<Plane>) {
        self.spare.pop().unwrap_or_default()
    }

    /// Drops the queued work, keeping bin capacity and the lists of big draws for the next
    /// frame.
    pub fn reset(&mut self) {
        // Unique once the tiles have run; a draw someone still holds is simply dropped.
        let lists = self
            .draws
            .drain(..)
            .filter_map(|d| Arc::try_unwrap(d).ok())
            .map(|d| (d.tris, d.planes));
        keep_spare_lists(&mut self.spare, lists);
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

    #[test]
    fn the_lists_of_a_few_big_draws_are_kept_empty() {
        let mut s = Scene::default();
        let lists = |sizes: &[usize]| -> Vec<(Vec<Triangle>, Vec<Plane>)> {
            sizes
                .iter()
                .map(|&n| {
                    let planes = vec![
                        Plane {
                            a: 1.0,
                            b: 2.0,
                            c: 3.0
                        };
                        3
                    ];
                    (Vec::with_capacity(n), planes)
                })
                .collect()
        };
        keep_spare_lists(
            &mut s.spare,
            lists(&[10, 1 << 13, 1 << 16, 1 << 12]).into_iter(),
        );
        keep_spare_lists(
            &mut s.spare,
            lists(&[1 << 14, 1 << 15, 1 << 17]).into_iter(),
        );
        // The four roomiest of the big ones, roomiest first, emptied.
        let mut got = Vec::new();
        while !s.spare.is_empty() {
            let (t, p) = s.take_lists();
            assert!(t.is_empty() && p.is_empty() && p.capacity() >= 3);
            got.push(t.capacity());
        }
        assert_eq!(got, [1 << 17, 1 << 16, 1 << 15, 1 << 14]);
        let (t, p) = s.take_lists();
        assert_eq!((t.capacity(), p.capacity()), (0, 0));
    }
}
