//! Texture storage and sampling (DESIGN.md §4): images and formats, filtering and LOD, the
//! global descriptor table indexed by bindless handle, resident sets, and `rt_texture`, the
//! helper generated code calls.
//!
//! | file | owns |
//! |---|---|
//! | `image.rs` | linear pixel storage shared with the rasterizer, formats |

pub mod image;

pub use image::{Format, Image};

use crate::jit::abi::{TexRequest, TexResult};

use std::sync::{Arc, Mutex};

/// Sampler state (GL 4.5 core §8.14; glTexParameter / glSamplerParameter). GL enum values.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SamplerState {
    pub min_filter: u32,
    pub mag_filter: u32,
    pub wrap_s: u32,
    pub wrap_t: u32,
    pub wrap_r: u32,
    pub border_color: [f32; 4],
    pub min_lod: f32,
    pub max_lod: f32,
    pub lod_bias: f32,
}

impl Default for SamplerState {
    /// The GL initial state (GL 4.5 core table 23.18).
    fn default() -> Self {
        SamplerState {
            min_filter: 0x2702, // GL_NEAREST_MIPMAP_LINEAR
            mag_filter: 0x2601, // GL_LINEAR
            wrap_s: 0x2901,     // GL_REPEAT
            wrap_t: 0x2901,
            wrap_r: 0x2901,
            border_color: [0.0; 4],
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
        }
    }
}

/// The texture-side state a descriptor captures: the level images and the level range.
#[derive(Clone, Debug, Default)]
pub struct TextureView {
    /// `levels[i]` is mip level i, when specified.
    pub levels: Vec<Option<Arc<Image>>>,
    pub base_level: u32,
    pub max_level: u32,
}

/// Debug messages produced while sampling (invalid or non-resident handles); the API drains
/// them into its KHR_debug log.
pub type DebugSink = Arc<Mutex<Vec<String>>>;

/// A resident set (per context, DESIGN.md §4). Draws hold `Arc` snapshots of it.
#[derive(Clone, Debug, Default)]
pub struct ResidentSet {
    handles: std::collections::BTreeSet<u64>,
}

impl ResidentSet {
    /// Adds `handle`; false when it was already resident.
    pub fn insert(&mut self, handle: u64) -> bool {
        self.handles.insert(handle)
    }
    /// Removes `handle`; false when it was not resident.
    pub fn remove(&mut self, handle: u64) -> bool {
        self.handles.remove(&handle)
    }
    pub fn contains(&self, handle: u64) -> bool {
        self.handles.contains(&handle)
    }
}

/// The global descriptor table (DESIGN.md §4). Handles pack a slot index and a generation;
/// 0 is never a valid handle.
///
/// INTERIM: the table is being built; until then it hands out no handles.
#[derive(Debug, Default)]
pub struct DescriptorTable {}

impl DescriptorTable {
    pub fn new() -> Self {
        DescriptorTable {}
    }
    /// Creates a descriptor for a complete texture with the given sampler state; `internal`
    /// descriptors (bound texture units turned into handles at draw time) need no
    /// residency. Returns the handle, or `None` when the table is full.
    pub fn insert(&self, view: TextureView, state: SamplerState, internal: bool) -> Option<u64> {
        let _ = (view, state, internal);
        None
    }
    /// Frees the descriptor of `handle` (texture or sampler deleted); the handle goes stale.
    pub fn remove(&self, handle: u64) {
        let _ = handle;
    }
    /// Whether `handle` names a live descriptor.
    pub fn contains(&self, handle: u64) -> bool {
        let _ = handle;
        false
    }
}

/// What a draw's texture lookups see: the descriptor table and the resident set the draw
/// captured. `ShaderEnv::sampler` points at one.
#[derive(Debug, Default)]
pub struct SampleContext {
    pub table: Arc<DescriptorTable>,
    pub resident: Arc<ResidentSet>,
    pub debug: DebugSink,
}

/// Performs one texture instruction for 4 lanes.
pub fn sample(_ctx: &SampleContext, _req: &TexRequest) -> TexResult {
    [[0; 4]; 4]
}

/// The texture helper generated code calls (see `jit::abi::RtTextureFn`).
///
/// # Safety
/// `ctx` points to a live `SampleContext`, `req` to a `TexRequest`, `out` to a writable
/// `TexResult`.
pub unsafe extern "C" fn rt_texture(ctx: *const u8, req: *const TexRequest, out: *mut TexResult) {
    // SAFETY: the caller's contract above.
    let (ctx, req) = unsafe { (&*(ctx as *const SampleContext), &*req) };
    let res = sample(ctx, req);
    // SAFETY: the caller's contract above.
    unsafe { out.write(res) };
}
