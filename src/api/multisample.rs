//! Multisample state and queries (GL 4.5 core §14.3.1, §17.3.3, §22.3): sample positions
//! (glGetMultisamplefv), the sample mask (glSampleMaski), the supported sample counts
//! (glGetInternalformativ), the draw framebuffer's GL_SAMPLES / GL_SAMPLE_BUFFERS, and
//! multisample textures (§8.8: glTex(ture)Image/Storage{2,3}DMultisample).
//! Multisample renderbuffers live in `framebuffer.rs`, rasterization in
//! `raster::multisample`, resolves in `blit.rs`.
//!
//! A multisample texture is stored as a multisample renderbuffer is: level 0 holds sample
//! 0 (all its layers, for an array) and `Texture::planes` samples 1.., one single-sample
//! image each, so framebuffers draw into it with the same per-sample passes and blits
//! resolve it the same way. Sampling sees the samples as levels (`sampler::TexKind`).

use std::sync::Arc;

use crate::api::context::{dirty, limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::framebuffer::{Attachment, Framebuffer};
use crate::api::pixels;
use crate::api::texture::{color_renderable, TexRef};
use crate::gl::enums as gl;
use crate::raster::multisample::{self, SAMPLE_COUNTS};
use crate::sampler::Format;

gl_commands! {
    /// glGetMultisamplefv (GL 4.5 core §14.3.1.1): GL_SAMPLE_POSITION of sample `index`
    /// of the draw framebuffer, in [0, 1]² from the pixel's lower-left corner.
    "glGetMultisamplefv"
    fn get_multisamplefv(pname: u32, index: u32) -> [f32; 2] = try_get_multisamplefv;
    /// glSampleMaski (GL 4.5 core §17.3.3): word `mask_number` of the sample mask.
    "glSampleMaski" fn sample_maski(mask_number: u32, mask: u32) = try_sample_maski;
    /// glSampleCoverage (GL 4.5 core §17.3.3): the coverage value (clamped to [0, 1]) and
    /// invert flag GL_SAMPLE_COVERAGE applies (`coverage_mask`).
    "glSampleCoverage" fn sample_coverage(value: f32, invert: bool) = try_sample_coverage;
    /// glGetInternalformativ (GL 4.5 core §22.3) for GL_NUM_SAMPLE_COUNTS, GL_SAMPLES and
    /// GL_INTERNALFORMAT_SUPPORTED; at most `buf_size` values.
    "glGetInternalformativ"
    fn get_internalformativ(target: u32, internalformat: u32, pname: u32, buf_size: i32) -> Vec<i32>
        = try_get_internalformativ;
    /// glGetInternalformati64v (GL 4.5 core §22.3): glGetInternalformativ's values as
    /// 64-bit integers.
    "glGetInternalformati64v"
    fn get_internalformati64v(target: u32, internalformat: u32, pname: u32, buf_size: i32) -> Vec<i64>
        = try_get_internalformati64v;
    /// glMinSampleShading (GL 4.5 core §14.3.1.1): the value is clamped to [0, 1] and
    /// stored; every sample is shaded anyway (`FixedState::sample_shading`).
    "glMinSampleShading" fn min_sample_shading(value: f32) = try_min_sample_shading;
    /// glTexImage2DMultisample (GL 4.5 core §8.8).
    "glTexImage2DMultisample"
    fn tex_image_2d_multisample(target: u32, samples: i32, internalformat: u32, width: i32, height: i32, fixed: bool)
        = try_tex_image_2d_multisample;
    /// glTexImage3DMultisample (GL 4.5 core §8.8).
    #[allow(clippy::too_many_arguments)]
    "glTexImage3DMultisample"
    fn tex_image_3d_multisample(target: u32, samples: i32, internalformat: u32, width: i32, height: i32, depth: i32, fixed: bool)
        = try_tex_image_3d_multisample;
    /// glTexStorage2DMultisample (GL 4.5 core §8.19).
    "glTexStorage2DMultisample"
    fn tex_storage_2d_multisample(target: u32, samples: i32, internalformat: u32, width: i32, height: i32, fixed: bool)
        = try_tex_storage_2d_multisample;
    /// glTexStorage3DMultisample (GL 4.5 core §8.19).
    #[allow(clippy::too_many_arguments)]
    "glTexStorage3DMultisample"
    fn tex_storage_3d_multisample(target: u32, samples: i32, internalformat: u32, width: i32, height: i32, depth: i32, fixed: bool)
        = try_tex_storage_3d_multisample;
    /// glTextureStorage2DMultisample (GL 4.5 core §8.19, DSA).
    "glTextureStorage2DMultisample"
    fn texture_storage_2d_multisample(texture: u32, samples: i32, internalformat: u32, width: i32, height: i32, fixed: bool)
        = try_texture_storage_2d_multisample;
    /// glTextureStorage3DMultisample (GL 4.5 core §8.19, DSA).
    #[allow(clippy::too_many_arguments)]
    "glTextureStorage3DMultisample"
    fn texture_storage_3d_multisample(texture: u32, samples: i32, internalformat: u32, width: i32, height: i32, depth: i32, fixed: bool)
        = try_texture_storage_3d_multisample;
}

/// The internal format of a multisample texture: a colour-, depth- or stencil-renderable
/// format (GL 4.5 core §8.8: INVALID_ENUM otherwise), integer ones included. The base
/// formats RED, RG, RGB and RGBA are colour-renderable (§9.4) and allowed with `base_formats`
/// (glTexImage*Multisample); glTex(ture)Storage*Multisample take sized formats only
/// (§8.19).
fn ms_internal_format(internalformat: u32, base_formats: bool) -> GlResult<pixels::InternalFormat> {
    if internalformat == gl::STENCIL_INDEX8 {
        // Stored as D24S8 whose depth bits are unused, as renderbuffers store it.
        return Ok(pixels::InternalFormat {
            gl: gl::STENCIL_INDEX8,
            storage: Format::Depth24Stencil8,
            channels: 1,
            bits: [0; 4],
            sized: true,
        });
    }
    pixels::internal_format(internalformat)
        .filter(|f| {
            let base =
                base_formats && matches!(internalformat, gl::RED | gl::RG | gl::RGB | gl::RGBA);
            // Compressed formats are not colour-renderable (GL 4.5 core table 8.14).
            let compressed = crate::api::compressed::specific(f.gl).is_some();
            (f.sized || base)
                && !compressed
                && (color_renderable(f.storage) || f.storage.is_depth())
        })
        .ok_or(GlError::BadEnum(
            "internal format (not colour-, depth- or stencil-renderable)",
            internalformat,
        ))
}

impl Context {
    /// Whether the attachments of `fb` agree on fixed sample locations (GL 4.5 core §9.4.2):
    /// every attached texture has the same GL_TEXTURE_FIXED_SAMPLE_LOCATIONS, and it is
    /// TRUE when renderbuffers are attached too (else FRAMEBUFFER_INCOMPLETE_MULTISAMPLE).
    pub(crate) fn fixed_sample_locations_agree(&self, fb: &Framebuffer) -> bool {
        let all = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter());
        let (mut textures, mut renderbuffer) = (Vec::new(), false);
        for a in all {
            match *a {
                Attachment::Texture { name, .. } => textures.push(
                    self.objs
                        .textures
                        .get(name)
                        .is_none_or(|t| t.fixed_sample_locations),
                ),
                Attachment::Renderbuffer(_) => renderbuffer = true,
            }
        }
        let first = textures.first().copied().unwrap_or(true);
        textures.iter().all(|&f| f == first) && (!renderbuffer || first)
    }

    pub(crate) fn try_min_sample_shading(&mut self, value: f32) -> GlResult<()> {
        // NaN clamps to 0 (as a comparison-based clamp gives).
        self.fixed.min_sample_shading = if value >= 1.0 {
            1.0
        } else if value > 0.0 {
            value
        } else {
            0.0
        };
        Ok(())
    }

    pub(crate) fn try_tex_image_2d_multisample(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        fixed: bool,
    ) -> GlResult<()> {
        if target == gl::PROXY_TEXTURE_2D_MULTISAMPLE {
            let dims = [width, height, 1];
            return self.ms_proxy(target, samples, internalformat, dims, fixed, false);
        }
        let r = self.ms_target_texture(target, gl::TEXTURE_2D_MULTISAMPLE)?;
        self.ms_storage(r, samples, internalformat, [width, height, 1], fixed, false)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_3d_multisample(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        depth: i32,
        fixed: bool,
    ) -> GlResult<()> {
        if target == gl::PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY {
            let dims = [width, height, depth];
            return self.ms_proxy(target, samples, internalformat, dims, fixed, false);
        }
        let r = self.ms_target_texture(target, gl::TEXTURE_2D_MULTISAMPLE_ARRAY)?;
        self.ms_storage(
            r,
            samples,
            internalformat,
            [width, height, depth],
            fixed,
            false,
        )
    }

    pub(crate) fn try_tex_storage_2d_multisample(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        fixed: bool,
    ) -> GlResult<()> {
        if target == gl::PROXY_TEXTURE_2D_MULTISAMPLE {
            let dims = [width, height, 1];
            return self.ms_proxy(target, samples, internalformat, dims, fixed, true);
        }
        let r = self.ms_target_texture(target, gl::TEXTURE_2D_MULTISAMPLE)?;
        self.ms_storage(r, samples, internalformat, [width, height, 1], fixed, true)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_storage_3d_multisample(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        depth: i32,
        fixed: bool,
    ) -> GlResult<()> {
        if target == gl::PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY {
            let dims = [width, height, depth];
            return self.ms_proxy(target, samples, internalformat, dims, fixed, true);
        }
        let r = self.ms_target_texture(target, gl::TEXTURE_2D_MULTISAMPLE_ARRAY)?;
        self.ms_storage(
            r,
            samples,
            internalformat,
            [width, height, depth],
            fixed,
            true,
        )
    }

    pub(crate) fn try_texture_storage_2d_multisample(
        &mut self,
        texture: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        fixed: bool,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(texture, &[gl::TEXTURE_2D_MULTISAMPLE])?;
        self.ms_storage(r, samples, internalformat, [width, height, 1], fixed, true)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_storage_3d_multisample(
        &mut self,
        texture: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        depth: i32,
        fixed: bool,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(texture, &[gl::TEXTURE_2D_MULTISAMPLE_ARRAY])?;
        self.ms_storage(
            r,
            samples,
            internalformat,
            [width, height, depth],
            fixed,
            true,
        )
    }

    /// The multisample image and storage commands on a proxy target (`api/proxy.rs`):
    /// the real target's errors, then level 0's proxy state.
    fn ms_proxy(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        dims: [i32; 3],
        fixed: bool,
        immutable: bool,
    ) -> GlResult<()> {
        if samples < 1 {
            return Err(GlError::InvalidValue("samples must be at least 1"));
        }
        let fmt = ms_internal_format(internalformat, !immutable)?;
        if immutable && dims.iter().any(|&v| v < 1) {
            return Err(GlError::InvalidValue(
                "width, height and depth must be positive",
            ));
        }
        let kind = crate::api::proxy::proxy_kind(target).unwrap_or_default();
        self.proxy_multisample(target, kind, samples, fmt, dims, fixed)
    }

    /// The texture bound to `target` on the active unit, which must be `want`
    /// (INVALID_ENUM otherwise).
    fn ms_target_texture(&self, target: u32, want: u32) -> GlResult<TexRef> {
        let what = if want == gl::TEXTURE_2D_MULTISAMPLE {
            "texture target (GL_TEXTURE_2D_MULTISAMPLE)"
        } else {
            "texture target (GL_TEXTURE_2D_MULTISAMPLE_ARRAY)"
        };
        self.bound_texture_of(target, &[want], what)
    }

    /// Storage of `samples` samples (rounded up to a supported count, GL 4.5 core §8.8) for
    /// the multisample texture `r`: sample 0 as level 0 and one plane per further sample,
    /// each `depth` layers. `immutable`: the TexStorage forms (§8.19).
    fn ms_storage(
        &mut self,
        r: TexRef,
        samples: i32,
        internalformat: u32,
        [width, height, depth]: [i32; 3],
        fixed: bool,
        immutable: bool,
    ) -> GlResult<()> {
        if samples < 1 {
            return Err(GlError::InvalidValue("samples must be at least 1"));
        }
        let fmt = ms_internal_format(internalformat, !immutable)?;
        let n = multisample::supported_count(samples as u32).ok_or(GlError::InvalidOperation(
            "samples past GL_MAX_SAMPLES for the format",
        ))?;
        if immutable && (width < 1 || height < 1 || depth < 1) {
            return Err(GlError::InvalidValue(
                "width, height and depth must be positive",
            ));
        }
        let (w, h) = Self::check_size(width, height)?;
        let d = Self::check_layers(depth)?;
        let t = self.texture_for_state_change_of(r)?;
        if t.immutable {
            return Err(GlError::InvalidOperation("texture storage is immutable"));
        }
        let new = || pixels::new_image_layers(w, h, d, fmt.storage).map(Arc::new);
        let image = new()?;
        let planes = (1..n).map(|_| new()).collect::<GlResult<Vec<_>>>()?;
        let t = self.texture_for_state_change_of(r)?;
        t.levels = vec![None; limits::MAX_MIP_LEVELS];
        t.levels[0] = Some(image);
        t.formats = vec![None; limits::MAX_MIP_LEVELS];
        t.formats[0] = Some(fmt);
        t.planes = planes;
        t.samples = n;
        t.fixed_sample_locations = fixed;
        t.immutable = immutable;
        t.immutable_levels = immutable as i32;
        self.texture_changed(r);
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    /// GL_SAMPLES of the draw framebuffer (0 when single-sample or incomplete).
    pub(crate) fn draw_samples(&self) -> u32 {
        self.framebuffer_buffers(self.draw_framebuffer, false)
            .map_or(0, |b| b.samples)
    }

    pub(crate) fn try_get_multisamplefv(&mut self, pname: u32, index: u32) -> GlResult<[f32; 2]> {
        if pname != gl::SAMPLE_POSITION {
            return Err(GlError::BadEnum("multisample parameter", pname));
        }
        let n = self.draw_samples();
        // A single-sample framebuffer has its one sample at the centre (as Mesa answers).
        if index >= n.max(1) {
            return Err(GlError::InvalidValue(
                "sample index not below GL_SAMPLES of the draw framebuffer",
            ));
        }
        Ok(multisample::position(n, index))
    }

    pub(crate) fn try_sample_coverage(&mut self, value: f32, invert: bool) -> GlResult<()> {
        self.fixed.sample_coverage_value = if value.is_nan() {
            0.0
        } else {
            value.clamp(0.0, 1.0)
        };
        self.fixed.sample_coverage_invert = invert;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_sample_maski(&mut self, mask_number: u32, mask: u32) -> GlResult<()> {
        if mask_number >= limits::MAX_SAMPLE_MASK_WORDS {
            return Err(GlError::InvalidValue(
                "mask number not below GL_MAX_SAMPLE_MASK_WORDS",
            ));
        }
        self.fixed.sample_mask = mask;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_get_internalformati64v(
        &mut self,
        target: u32,
        internalformat: u32,
        pname: u32,
        buf_size: i32,
    ) -> GlResult<Vec<i64>> {
        self.try_get_internalformativ(target, internalformat, pname, buf_size)
            .map(|v| v.into_iter().map(i64::from).collect())
    }

    pub(crate) fn try_get_internalformativ(
        &mut self,
        target: u32,
        internalformat: u32,
        pname: u32,
        buf_size: i32,
    ) -> GlResult<Vec<i32>> {
        if buf_size < 0 {
            return Err(GlError::InvalidValue("negative buffer size"));
        }
        if !matches!(
            target,
            gl::RENDERBUFFER
                | gl::TEXTURE_2D
                | gl::TEXTURE_2D_ARRAY
                | gl::TEXTURE_2D_MULTISAMPLE
                | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        ) {
            return Err(GlError::BadEnum("internal format query target", target));
        }
        // Sample counts apply to renderable formats of multisample-capable targets
        // (renderbuffers and multisample textures).
        let renderable = pixels::internal_format(internalformat)
            .is_some_and(|f| color_renderable(f.storage) || f.storage.is_depth())
            || internalformat == gl::STENCIL_INDEX8;
        let ms_target = matches!(
            target,
            gl::RENDERBUFFER | gl::TEXTURE_2D_MULTISAMPLE | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        );
        let counts: &[u32] = if renderable && ms_target {
            &SAMPLE_COUNTS
        } else {
            &[]
        };
        let values: Vec<i32> = match pname {
            gl::NUM_SAMPLE_COUNTS => vec![counts.len() as i32],
            gl::SAMPLES => counts.iter().map(|&n| n as i32).collect(),
            gl::INTERNALFORMAT_SUPPORTED => {
                vec![(pixels::internal_format(internalformat).is_some()
                    || internalformat == gl::STENCIL_INDEX8) as i32]
            }
            _ => {
                return Err(GlError::InvalidOperation(
                    "glGetInternalformativ: softgl answers GL_NUM_SAMPLE_COUNTS, GL_SAMPLES and GL_INTERNALFORMAT_SUPPORTED only",
                ))
            }
        };
        Ok(values.into_iter().take(buf_size as usize).collect())
    }
}

/// The temporary coverage mask of GL_SAMPLE_COVERAGE (GL 4.5 core §17.3.3) for a target
/// of `samples` samples: round(value · samples) samples on, inverted when `invert`. The
/// spec leaves which samples to the implementation; softgl's choice is the same on every
/// pixel and every machine: the lowest-numbered samples (sample i is on when
/// i < round(value · samples), one IEEE f32 multiply rounded half to even), so value 0.5
/// of 4 samples keeps samples 0 and 1. A single-sample target (`samples` 0) is not
/// affected (the mask is all ones).
pub(crate) fn coverage_mask(samples: u32, value: f32, invert: bool) -> u32 {
    if samples == 0 {
        return !0;
    }
    let on = (value * samples as f32).round_ties_even() as u32;
    let all = if samples >= 32 {
        !0
    } else {
        (1u32 << samples) - 1
    };
    let mask = if on >= 32 { !0 } else { (1u32 << on) - 1 } & all;
    if invert {
        !mask & all
    } else {
        mask
    }
}

#[cfg(test)]
mod coverage_tests {
    use super::coverage_mask;

    #[test]
    fn lowest_samples_first_and_inverted() {
        assert_eq!(coverage_mask(4, 0.5, false), 0b0011);
        assert_eq!(coverage_mask(4, 0.5, true), 0b1100);
        assert_eq!(coverage_mask(8, 1.0, false), 0xFF);
        assert_eq!(coverage_mask(8, 0.0, false), 0);
        assert_eq!(coverage_mask(8, 0.0, true), 0xFF);
        // 0.3 · 4 = 1.2 rounds to 1; 0.375 · 4 = 1.5 rounds to even 2.
        assert_eq!(coverage_mask(4, 0.3, false), 0b0001);
        assert_eq!(coverage_mask(4, 0.375, false), 0b0011);
        assert_eq!(coverage_mask(2, 0.75, true), 0b00);
        assert_eq!(coverage_mask(0, 0.0, false), !0);
    }
}
