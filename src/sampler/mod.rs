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

/// What a draw's texture lookups see: the descriptor table and the resident set the draw
/// captured. `ShaderEnv::sampler` points at one.
#[derive(Debug, Default)]
pub struct SampleContext {}

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
