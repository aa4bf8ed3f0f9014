//! Proxy textures (GL 4.5 core §8.22): glTexImage*, glTexStorage* and their multisample
//! forms on a GL_PROXY_TEXTURE_* target ask whether such an image could be made. Nothing
//! is allocated; the answer is the proxy's level state (sizes and format when the image is
//! supported, zeros when it is not), which glGetTexLevelParameter reads.

use std::collections::BTreeMap;

use crate::api::context::{limits, Context};
use crate::api::error::{GlError, GlResult};
use crate::api::pixels::{self, InternalFormat};
use crate::gl::enums as gl;
use crate::raster::multisample;
use crate::sampler::TexKind;

/// The most bytes one proxy image may take and still be supported: 4 GiB (a
/// 16384×16384 RGBA32F level). A fixed bound rather than a probe of free memory, so that
/// the answer is the same on every machine.
const MAX_PROXY_BYTES: u64 = 1 << 32;

/// A proxy level's state, as glGetTexLevelParameter reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ProxyLevel {
    /// TEXTURE_WIDTH, _HEIGHT and _DEPTH (a 1D array's layers are its height, a cube
    /// map's depth is 1, a cube map array's depth its layer-faces).
    pub size: [u32; 3],
    pub format: InternalFormat,
    /// TEXTURE_SAMPLES (0 for single-sample targets).
    pub samples: u32,
    pub fixed_sample_locations: bool,
}

/// The level state of every proxy target, keyed by (target, level); a level absent here
/// has no image (its state is zero).
pub(crate) type ProxyLevels = BTreeMap<(u32, usize), ProxyLevel>;

/// The texture kind the proxy target `target` stands for.
pub(crate) fn proxy_kind(target: u32) -> Option<TexKind> {
    Some(match target {
        gl::PROXY_TEXTURE_1D => TexKind::D1,
        gl::PROXY_TEXTURE_2D => TexKind::D2,
        gl::PROXY_TEXTURE_3D => TexKind::D3,
        gl::PROXY_TEXTURE_1D_ARRAY => TexKind::D1Array,
        gl::PROXY_TEXTURE_2D_ARRAY => TexKind::D2Array,
        gl::PROXY_TEXTURE_RECTANGLE => TexKind::Rect,
        gl::PROXY_TEXTURE_CUBE_MAP => TexKind::Cube,
        gl::PROXY_TEXTURE_CUBE_MAP_ARRAY => TexKind::CubeArray,
        gl::PROXY_TEXTURE_2D_MULTISAMPLE => TexKind::D2Multisample,
        gl::PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY => TexKind::D2MultisampleArray,
        _ => return None,
    })
}

/// The largest width, height and depth (layers for arrays) of a level 0 image of `kind`:
/// GL_MAX_TEXTURE_SIZE, GL_MAX_3D_TEXTURE_SIZE, GL_MAX_CUBE_MAP_TEXTURE_SIZE,
/// GL_MAX_RECTANGLE_TEXTURE_SIZE and GL_MAX_ARRAY_TEXTURE_LAYERS as glGetIntegerv reports
/// them (`api/query.rs`).
fn max_size(kind: TexKind) -> [u32; 3] {
    let big = limits::MAX_TEXTURE_SIZE as u32;
    let layers = limits::MAX_ARRAY_TEXTURE_LAYERS as u32;
    match kind {
        TexKind::D1 => [big, 1, 1],
        TexKind::D1Array => [big, layers, 1],
        TexKind::D3 => [layers; 3],
        TexKind::D2Array | TexKind::CubeArray | TexKind::D2MultisampleArray => [big, big, layers],
        _ => [big, big, 1],
    }
}

/// Whether a level `level` image of `kind`, `size` (as reported) in `format`, can be
/// made: each dimension within its limit at that level (a level's size halves, GL 4.5
/// core §8.5; array layers do not) and the texels within `MAX_PROXY_BYTES`.
fn supported(kind: TexKind, level: usize, size: [u32; 3], format: &InternalFormat) -> bool {
    let max = max_size(kind);
    let layered = matches!(
        kind,
        TexKind::D1Array | TexKind::D2Array | TexKind::CubeArray | TexKind::D2MultisampleArray
    );
    let within = (0..3).all(|i| {
        let is_layers = layered && i == if kind == TexKind::D1Array { 1 } else { 2 };
        let limit = if is_layers {
            max[i]
        } else {
            (max[i] >> level).max(1)
        };
        size[i] <= limit
    });
    let faces = if kind == TexKind::Cube { 6 } else { 1 };
    let bytes = size.iter().map(|&s| s as u64).product::<u64>()
        * faces
        * format.storage.bytes_per_texel() as u64;
    within && bytes <= MAX_PROXY_BYTES
}

/// The size `(width, height, depth)` arguments describe, checked as for the real target
/// (INVALID_VALUE for negative sizes, a non-square cube face, cube map array layer-faces
/// not a multiple of 6, a rectangle level other than 0).
fn checked_size(kind: TexKind, level: usize, [w, h, d]: [i32; 3]) -> GlResult<[u32; 3]> {
    if w < 0 || h < 0 || d < 0 {
        return Err(GlError::InvalidValue(
            "width, height and depth must not be negative",
        ));
    }
    if matches!(kind, TexKind::Cube | TexKind::CubeArray) && w != h {
        return Err(GlError::InvalidValue("cube map faces must be square"));
    }
    if kind == TexKind::CubeArray && d % 6 != 0 {
        return Err(GlError::InvalidValue(
            "cube map array layer-faces must be a multiple of 6",
        ));
    }
    if kind == TexKind::Rect && level != 0 {
        return Err(GlError::InvalidValue(
            "rectangle textures have level 0 only",
        ));
    }
    Ok([w as u32, h as u32, d as u32])
}

impl Context {
    /// glTexImage1D/2D/3D on the proxy target `target` of `kind`: the errors the real
    /// target would give, then the level's proxy state set (supported) or cleared.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn proxy_image(
        &mut self,
        target: u32,
        kind: TexKind,
        level: i32,
        internalformat: i32,
        dims: [i32; 3],
        border: i32,
        format: u32,
        ty: u32,
    ) -> GlResult<()> {
        let lvl = Self::check_level(level)?;
        let size = checked_size(kind, lvl, dims)?;
        let ifmt = crate::api::texture::image_format(kind, internalformat, border)?;
        // The format/type pair is checked as for an upload.
        pixels::unpack(ifmt, format, ty, 0, 0, &[], &pixels::PixelStore::INITIAL)?;
        let state = ProxyLevel {
            size,
            format: ifmt,
            samples: 0,
            fixed_sample_locations: true,
        };
        if supported(kind, lvl, size, &ifmt) {
            self.proxy_levels.insert((target, lvl), state);
        } else {
            self.proxy_levels.remove(&(target, lvl));
        }
        Ok(())
    }

    /// glTexStorage1D/2D/3D on the proxy target `target` of `kind` (GL 4.5 core §8.19):
    /// the real target's errors, then `levels` levels of proxy state, or every level
    /// cleared when the storage is not supported.
    pub(crate) fn proxy_storage(
        &mut self,
        target: u32,
        kind: TexKind,
        levels: i32,
        internalformat: u32,
        dims: [i32; 3],
    ) -> GlResult<()> {
        let ifmt = crate::api::texture::storage_format(internalformat)?;
        if levels < 1 || dims.iter().any(|&v| v < 1) {
            return Err(GlError::InvalidValue(
                "levels, width, height and depth must be positive",
            ));
        }
        let size = checked_size(kind, 0, dims)?;
        crate::api::compressed::check_target(kind, internalformat)?;
        if kind == TexKind::Rect && levels != 1 {
            return Err(GlError::InvalidValue("rectangle textures have one level"));
        }
        // Levels shrink in width, height (not a 1D array's layers) and a 3D depth.
        let shrinks = match kind {
            TexKind::D1Array => [true, false, false],
            TexKind::D3 => [true; 3],
            _ => [true, true, false],
        };
        let largest = (0..3).filter(|&i| shrinks[i]).map(|i| size[i]).max();
        let max_levels = 32 - largest.unwrap_or(1).leading_zeros();
        if levels as u32 > max_levels {
            return Err(GlError::InvalidOperation("too many levels for the size"));
        }
        let level_size = |l: usize| -> [u32; 3] {
            std::array::from_fn(|i| {
                if shrinks[i] {
                    (size[i] >> l).max(1)
                } else {
                    size[i]
                }
            })
        };
        let ok = (0..levels as usize).all(|l| supported(kind, l, level_size(l), &ifmt));
        self.proxy_levels.retain(|&(t, _), _| t != target);
        if ok {
            for l in 0..levels as usize {
                let state = ProxyLevel {
                    size: level_size(l),
                    format: ifmt,
                    samples: 0,
                    fixed_sample_locations: true,
                };
                self.proxy_levels.insert((target, l), state);
            }
        }
        Ok(())
    }

    /// glTex(Image|Storage)(2D|3D)Multisample on a proxy target: the real target's errors
    /// (`format` is the checked multisample internal format), then level 0's proxy state
    /// set or cleared.
    pub(crate) fn proxy_multisample(
        &mut self,
        target: u32,
        kind: TexKind,
        samples: i32,
        format: InternalFormat,
        dims: [i32; 3],
        fixed: bool,
    ) -> GlResult<()> {
        let n = multisample::supported_count(samples as u32).ok_or(GlError::InvalidOperation(
            "samples past GL_MAX_SAMPLES for the format",
        ))?;
        let size = checked_size(kind, 0, dims)?;
        let state = ProxyLevel {
            size,
            format,
            samples: n,
            fixed_sample_locations: fixed,
        };
        let planes = size.map(|s| s as u64).iter().product::<u64>() * n.max(1) as u64;
        let bytes = planes * format.storage.bytes_per_texel() as u64;
        if supported(kind, 0, size, &format) && bytes <= MAX_PROXY_BYTES {
            self.proxy_levels.insert((target, 0), state);
        } else {
            self.proxy_levels.remove(&(target, 0));
        }
        Ok(())
    }

    /// glGetTexLevelParameteriv on the proxy target `target`: its level state.
    pub(crate) fn proxy_level_parameter(
        &self,
        target: u32,
        level: usize,
        pname: u32,
    ) -> GlResult<i32> {
        let p = self.proxy_levels.get(&(target, level));
        let size = |i: usize| p.map_or(0, |p| p.size[i] as i32);
        Ok(match pname {
            gl::TEXTURE_WIDTH => size(0),
            gl::TEXTURE_HEIGHT => size(1),
            gl::TEXTURE_DEPTH => size(2),
            gl::TEXTURE_SAMPLES => p.map_or(0, |p| p.samples as i32),
            gl::TEXTURE_FIXED_SAMPLE_LOCATIONS => p.is_none_or(|p| p.fixed_sample_locations) as i32,
            // No texels are kept, so a compressed proxy has no image size to report.
            gl::TEXTURE_COMPRESSED_IMAGE_SIZE => 0,
            gl::TEXTURE_BUFFER_OFFSET
            | gl::TEXTURE_BUFFER_SIZE
            | gl::TEXTURE_BUFFER_DATA_STORE_BINDING => 0,
            pname => crate::api::texture::format_level_parameter(p.map(|p| p.format), pname)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba8() -> InternalFormat {
        pixels::internal_format(gl::RGBA8).unwrap()
    }

    #[test]
    fn limits_follow_the_level_and_keep_layers() {
        let f = rgba8();
        assert!(supported(TexKind::D2, 0, [16384, 16384, 1], &f));
        assert!(!supported(TexKind::D2, 0, [16385, 1, 1], &f));
        assert!(!supported(TexKind::D2, 1, [16384, 1, 1], &f));
        assert!(supported(TexKind::D2, 1, [8192, 8192, 1], &f));
        // A 1D array's layers are its height and do not halve with the level.
        assert!(supported(TexKind::D1Array, 3, [16, 2048, 1], &f));
        assert!(!supported(TexKind::D1Array, 0, [16, 2049, 1], &f));
        assert!(supported(TexKind::D2Array, 4, [16, 16, 2048], &f));
        assert!(!supported(TexKind::D3, 0, [2049, 1, 1], &f));
        assert!(!supported(TexKind::D3, 1, [1, 1, 1025], &f));
    }

    #[test]
    fn bytes_past_the_bound_are_not_supported() {
        let f32x4 = pixels::internal_format(gl::RGBA32F).unwrap();
        assert!(supported(TexKind::D2, 0, [16384, 16384, 1], &f32x4));
        // Six faces of 4 GiB / 6 + 1 texel rows do not fit.
        assert!(!supported(TexKind::Cube, 0, [16384, 16384, 1], &f32x4));
        assert!(!supported(TexKind::D2Array, 0, [16384, 16384, 2], &f32x4));
    }

    #[test]
    fn sizes_are_checked_as_for_the_real_target() {
        assert!(checked_size(TexKind::D2, 0, [-1, 1, 1]).is_err());
        assert!(checked_size(TexKind::Cube, 0, [4, 8, 1]).is_err());
        assert!(checked_size(TexKind::CubeArray, 0, [4, 4, 7]).is_err());
        assert!(checked_size(TexKind::Rect, 1, [4, 4, 1]).is_err());
        assert_eq!(
            checked_size(TexKind::CubeArray, 0, [4, 4, 12]).unwrap(),
            [4, 4, 12]
        );
    }

    fn level(c: &mut Context, target: u32, level: i32) -> [i32; 4] {
        [
            gl::TEXTURE_WIDTH,
            gl::TEXTURE_HEIGHT,
            gl::TEXTURE_DEPTH,
            gl::TEXTURE_INTERNAL_FORMAT,
        ]
        .map(|p| c.get_tex_level_parameteriv(target, level, p))
    }

    #[test]
    fn a_supported_image_sets_the_proxy_state_and_allocates_nothing() {
        let mut c = Context::new(4, 4);
        let rgba8 = gl::RGBA8 as i32;
        let (f, ty) = (gl::RGBA, gl::UNSIGNED_BYTE);
        c.tex_image_2d(gl::PROXY_TEXTURE_2D, 0, rgba8, 16384, 16384, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let want = [16384, 16384, 1, gl::RGBA8 as i32];
        assert_eq!(level(&mut c, gl::PROXY_TEXTURE_2D, 0), want);
        assert_eq!(
            c.get_tex_level_parameteriv(gl::PROXY_TEXTURE_2D, 0, gl::TEXTURE_RED_SIZE),
            8
        );
        // The real target is untouched.
        assert_eq!(
            c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, gl::TEXTURE_WIDTH),
            0
        );
        // Too large: state cleared, no error (GL 4.5 core §8.22).
        c.tex_image_2d(gl::PROXY_TEXTURE_2D, 0, rgba8, 16385, 4, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            level(&mut c, gl::PROXY_TEXTURE_2D, 0),
            [0, 0, 0, gl::RGBA as i32]
        );
        // Bad arguments still give the real target's errors.
        c.tex_image_2d(gl::PROXY_TEXTURE_2D, 0, rgba8, -1, 4, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_image_2d(gl::PROXY_TEXTURE_RECTANGLE, 1, rgba8, 4, 4, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_image_2d(gl::PROXY_TEXTURE_CUBE_MAP, 0, rgba8, 4, 8, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_image_2d(
            gl::PROXY_TEXTURE_2D,
            0,
            rgba8,
            4,
            4,
            0,
            gl::RGBA,
            gl::FLOAT_MAT2,
            None,
        );
        assert_ne!(c.get_error(), gl::NO_ERROR);
        // A proxy target is no binding target and no 3D image target.
        c.bind_texture(gl::PROXY_TEXTURE_2D, 0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.tex_image_3d(gl::PROXY_TEXTURE_2D, 0, rgba8, 4, 4, 1, 0, f, ty, None);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
    }

    #[test]
    fn storage_sets_every_level_or_clears_them_all() {
        let mut c = Context::new(4, 4);
        let t = gl::PROXY_TEXTURE_CUBE_MAP_ARRAY;
        c.tex_storage_3d(t, 3, gl::RGBA16F, 32, 32, 12);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(level(&mut c, t, 2), [8, 8, 12, gl::RGBA16F as i32]);
        assert_eq!(level(&mut c, t, 3)[0], 0);
        c.tex_storage_3d(t, 1, gl::RGBA16F, 32, 32, 4098);
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.debug_messages());
        assert_eq!(level(&mut c, t, 0)[0], 0);
        assert_eq!(level(&mut c, t, 2)[0], 0, "every level cleared");
        c.tex_storage_3d(t, 1, gl::RGBA16F, 32, 32, 7);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_storage_2d(gl::PROXY_TEXTURE_2D, 9, gl::RGBA8, 16, 16);
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "more levels than 16x16 has"
        );
        c.tex_storage_2d(gl::PROXY_TEXTURE_1D_ARRAY, 3, gl::R8, 16, 5);
        assert_eq!(
            level(&mut c, gl::PROXY_TEXTURE_1D_ARRAY, 2),
            [4, 5, 1, gl::R8 as i32]
        );
        c.tex_storage_1d(gl::PROXY_TEXTURE_1D, 1, gl::RGBA, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM, "unsized format");
        c.tex_image_3d_multisample(
            gl::PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY,
            4,
            gl::RGBA8,
            8,
            8,
            3,
            false,
        );
        let ms = gl::PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY;
        assert_eq!(c.get_tex_level_parameteriv(ms, 0, gl::TEXTURE_SAMPLES), 4);
        assert_eq!(
            c.get_tex_level_parameteriv(ms, 0, gl::TEXTURE_FIXED_SAMPLE_LOCATIONS),
            0
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}
