//! The `extern "C"` helpers generated code calls for what is not worth inlining: half-float
//! and sRGB conversions of fragment variants, and, in tests, a hook standing in for
//! `sampler::rt_texture` (the maths built-ins are all inline, `vmath.rs`).
//! Symbol names are what `code.rs` registers with the `JITBuilder`.

/// Symbol of the texture helper in generated code.
pub(crate) const SYM_TEXTURE: &str = "softgl_rt_texture";
/// Symbol of `rt_half_to_float` in fragment variants.
pub(crate) const SYM_HALF_TO_FLOAT: &str = "softgl_rt_half_to_float";
/// Symbol of `rt_float_to_half` in fragment variants.
pub(crate) const SYM_FLOAT_TO_HALF: &str = "softgl_rt_float_to_half";

/// Words `rt_half_to_float` and `rt_float_to_half` convert: 4 components × 4 lanes.
pub(crate) const HALF_WORDS: usize = 16;

/// Converts, in place, 16 words holding binary16 bits (low 16 bits) to binary32 bits, the
/// way `raster::ops::unpack_color` reads RGBA16F (the `half` crate, exact).
///
/// # Safety
/// `p` points to 16 writable, 4-byte aligned `u32` (a fragment variant's stack slot).
pub(crate) unsafe extern "C" fn rt_half_to_float(p: *mut u32) {
    // SAFETY: the caller passes 16 writable words.
    let words = unsafe { std::slice::from_raw_parts_mut(p, HALF_WORDS) };
    for w in words {
        *w = half::f16::from_bits(*w as u16).to_f32().to_bits();
    }
}

/// Converts, in place, 16 words of binary32 bits to binary16 bits (zero-extended), the way
/// `raster::ops::pack_color` writes RGBA16F (round to nearest even, the `half` crate).
///
/// # Safety
/// As `rt_half_to_float`.
pub(crate) unsafe extern "C" fn rt_float_to_half(p: *mut u32) {
    // SAFETY: the caller passes 16 writable words.
    let words = unsafe { std::slice::from_raw_parts_mut(p, HALF_WORDS) };
    for w in words {
        *w = half::f16::from_f32(f32::from_bits(*w)).to_bits() as u32;
    }
}

/// Symbol of `rt_srgb8_to_linear` in fragment variants.
pub(crate) const SYM_SRGB8_TO_LINEAR: &str = "softgl_rt_srgb8_to_linear";
/// Symbol of `rt_linear_to_srgb8` in fragment variants.
pub(crate) const SYM_LINEAR_TO_SRGB8: &str = "softgl_rt_linear_to_srgb8";

/// Converts, in place, 16 words holding sRGB-encoded bytes (low 8 bits) to the f32 bits of
/// their linear values, the way `raster::ops::color_and_pack` decodes an SRGB8_ALPHA8
/// destination with GL_FRAMEBUFFER_SRGB on (`sampler::format::srgb8_to_linear`, exact).
///
/// # Safety
/// As `rt_half_to_float`.
pub(crate) unsafe extern "C" fn rt_srgb8_to_linear(p: *mut u32) {
    // SAFETY: the caller passes 16 writable words.
    let words = unsafe { std::slice::from_raw_parts_mut(p, HALF_WORDS) };
    for w in words {
        *w = crate::sampler::format::srgb8_to_linear(*w as u8).to_bits();
    }
}

/// Converts, in place, 16 words of f32 bits (linear values) to sRGB-encoded bytes
/// (zero-extended), as `raster::ops::color_and_pack` encodes them
/// (`sampler::format::linear_to_srgb8`, exact for every f32).
///
/// # Safety
/// As `rt_half_to_float`.
pub(crate) unsafe extern "C" fn rt_linear_to_srgb8(p: *mut u32) {
    // SAFETY: the caller passes 16 writable words.
    let words = unsafe { std::slice::from_raw_parts_mut(p, HALF_WORDS) };
    for w in words {
        *w = crate::sampler::format::linear_to_srgb8(f32::from_bits(*w)) as u32;
    }
}

/// The texture helper generated code calls: the sampler's; in test builds a hook that
/// forwards to the sampler unless the JIT's own tests switched it on for their thread.
pub(crate) fn texture_helper() -> crate::sampler::request::RtTextureFn {
    #[cfg(test)]
    {
        test_hook::rt_texture_hook
    }
    #[cfg(not(test))]
    {
        crate::sampler::rt_texture
    }
}

#[cfg(test)]
pub(crate) mod test_hook {
    //! Test stand-in for `sampler::rt_texture`. While switched on for a thread (`with_hook`,
    //! used by the JIT's tests) it records every request and answers
    //! `out[c][l] = coord[0][l] ^ (c << 24) ^ handle_lo[l]` for lanes in the mask; otherwise
    //! it forwards to the sampler, so other modules' unit tests see real texturing.

    use crate::sampler::request::{TexRequest, TexResult};
    use std::cell::{Cell, RefCell};

    thread_local! {
        pub static REQUESTS: RefCell<Vec<TexRequest>> = const { RefCell::new(Vec::new()) };
        static ON: Cell<bool> = const { Cell::new(false) };
    }

    /// Runs `f` with the hook answering texture calls made on this thread.
    pub fn with_hook<R>(f: impl FnOnce() -> R) -> R {
        struct Off;
        impl Drop for Off {
            fn drop(&mut self) {
                ON.with(|on| on.set(false));
            }
        }
        ON.with(|on| on.set(true));
        let _off = Off;
        f()
    }

    /// What the hook answers for a request.
    pub fn answer(req: &TexRequest) -> TexResult {
        let mut out = [[0u32; 4]; 4];
        for (c, row) in out.iter_mut().enumerate() {
            for (l, v) in row.iter_mut().enumerate() {
                if req.mask & (1 << l) != 0 {
                    // The layer (0 but for array lookups) takes part, so a test sees it.
                    *v = req.coord[0][l]
                        ^ ((c as u32) << 24)
                        ^ req.handle_lo[l]
                        ^ req.layer[l].rotate_left(11);
                }
            }
        }
        out
    }

    /// # Safety
    /// As `sampler::rt_texture`.
    pub unsafe extern "C" fn rt_texture_hook(
        ctx: *const u8,
        req: *const TexRequest,
        out: *mut TexResult,
    ) {
        if !ON.with(|on| on.get()) {
            // SAFETY: the same contract as ours.
            unsafe { crate::sampler::rt_texture(ctx, req, out) };
            return;
        }
        // SAFETY: the caller's contract (generated code passes its stack slots).
        let req = unsafe { *req };
        REQUESTS.with(|r| r.borrow_mut().push(req));
        // SAFETY: as above.
        unsafe { out.write(answer(&req)) };
    }
}
