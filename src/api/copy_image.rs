//! glCopyImageSubData (GL 4.5 core §18.3.3): raw texel copies between texture levels and
//! renderbuffers of compatible formats (the same texel size; depth and stencil formats only
//! into the same format), with no conversion, after a flush of queued work. Cube map faces
//! and array layers are z (table 18.4's rule: a cube map is six layers).

use std::sync::Arc;

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{RenderbufferName, TextureName};
use crate::api::pixels;
use crate::gl::enums as gl;
use crate::sampler::Image;

gl_commands! {
    /// glCopyImageSubData (GL 4.5 core §18.3.3): `src` and `dst` are (name, target, level,
    /// [x, y, z]); `size` is the source box's width, height and depth.
    "glCopyImageSubData"
    fn copy_image_sub_data(src: (u32, u32, i32, [i32; 3]), dst: (u32, u32, i32, [i32; 3]), size: [i32; 3])
        = try_copy_image_sub_data;
}

/// One side of a copy: its images (sample 0, then samples 1.. of a multisample
/// renderbuffer) and its internal format.
struct Side {
    images: Vec<Arc<Image>>,
    format: pixels::InternalFormat,
}

impl Context {
    pub(crate) fn try_copy_image_sub_data(
        &mut self,
        (src_name, src_target, src_level, src_at): (u32, u32, i32, [i32; 3]),
        (dst_name, dst_target, dst_level, dst_at): (u32, u32, i32, [i32; 3]),
        size: [i32; 3],
    ) -> GlResult<()> {
        let src = self.copy_side(src_name, src_target, src_level)?;
        let dst = self.copy_side(dst_name, dst_target, dst_level)?;
        if size.iter().any(|&s| s < 0) {
            return Err(GlError::InvalidValue("negative width, height or depth"));
        }
        // §18.3.3: texel sizes must match (table 18.4's view classes by size); depth and
        // stencil formats copy only into the same format.
        let (sf, df) = (src.format, dst.format);
        let bits = |f: pixels::InternalFormat| f.component_sizes().iter().sum::<i32>();
        let zs = |f: pixels::InternalFormat| f.storage.is_depth();
        let compatible = if zs(sf) || zs(df) {
            sf.gl == df.gl
        } else {
            bits(sf) == bits(df)
        };
        if !compatible {
            return Err(GlError::InvalidOperation("the formats are not compatible"));
        }
        if sf.storage.bytes_per_texel() != df.storage.bytes_per_texel() {
            return Err(GlError::InvalidOperation(
                "formats of one texel size but different storage in softgl",
            ));
        }
        if src.images.len() != dst.images.len() {
            return Err(GlError::InvalidOperation("the sample counts differ"));
        }
        let inside = |img: &Image, at: [i32; 3]| {
            let dims = [img.width(), img.height(), img.depth()];
            at.iter()
                .zip(size)
                .zip(dims)
                .all(|((&o, s), d)| o >= 0 && i64::from(o) + i64::from(s) <= i64::from(d))
        };
        if !inside(&src.images[0], src_at) || !inside(&dst.images[0], dst_at) {
            return Err(GlError::InvalidValue("the box is outside the image"));
        }
        if size.contains(&0) {
            return Ok(());
        }
        let flushed = self.flush_raster();
        let bpt = sf.storage.bytes_per_texel();
        let mut row = vec![0u8; size[0] as usize * bpt];
        for (s, d) in src.images.iter().zip(&dst.images) {
            let offset = |img: &Image, at: [i32; 3], y: i32, z: i32| {
                let (w, h) = (img.width() as usize, img.height() as usize);
                let (x, y, z) = (at[0] as usize, (at[1] + y) as usize, (at[2] + z) as usize);
                ((z * h + y) * w + x) * bpt
            };
            for z in 0..size[2] {
                for y in 0..size[1] {
                    // A row at a time through `row`: source and destination may be one
                    // image (overlap is undefined in GL; this copies rows as they were).
                    s.read_bytes(offset(s, src_at, y, z), &mut row);
                    d.write_bytes_flushed(&flushed, offset(d, dst_at, y, z), &row);
                }
            }
        }
        Ok(())
    }

    /// The images and format `name` of `target` holds at `level` (§18.3.3's errors:
    /// INVALID_ENUM for a target that is not RENDERBUFFER or a texture target, cube faces
    /// and buffer textures included; INVALID_VALUE for a name that is no object of that
    /// target, a level it does not have, or a level never specified).
    fn copy_side(&self, name: u32, target: u32, level: i32) -> GlResult<Side> {
        let bad_level = GlError::InvalidValue("not a level of the image");
        if target == gl::RENDERBUFFER {
            let rb = self
                .objs
                .renderbuffers
                .get(RenderbufferName(name))
                .ok_or(GlError::InvalidValue("not a renderbuffer"))?;
            if level != 0 {
                return Err(bad_level);
            }
            let image = rb
                .image
                .clone()
                .ok_or(GlError::InvalidValue("the renderbuffer has no storage"))?;
            let format = rb
                .format
                .unwrap_or_else(|| pixels::InternalFormat::of_storage(image.format()));
            let mut images = vec![image];
            images.extend(rb.planes.iter().cloned());
            return Ok(Side { images, format });
        }
        if !matches!(
            target,
            gl::TEXTURE_1D
                | gl::TEXTURE_2D
                | gl::TEXTURE_3D
                | gl::TEXTURE_CUBE_MAP
                | gl::TEXTURE_1D_ARRAY
                | gl::TEXTURE_2D_ARRAY
                | gl::TEXTURE_CUBE_MAP_ARRAY
                | gl::TEXTURE_RECTANGLE
                | gl::TEXTURE_2D_MULTISAMPLE
                | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        ) {
            return Err(GlError::BadEnum("copy target", target));
        }
        let t = self
            .objs
            .textures
            .get(TextureName(name))
            .filter(|t| name != 0 && t.target == Some(target))
            .ok_or(GlError::InvalidValue("not a texture of that target"))?;
        if level < 0 || level as usize >= limits::MAX_MIP_LEVELS {
            return Err(bad_level);
        }
        let image = t.levels[level as usize].clone().ok_or(bad_level)?;
        let format = t
            .level_format(level as usize)
            .unwrap_or_else(|| pixels::InternalFormat::of_storage(image.format()));
        Ok(Side {
            images: vec![image],
            format,
        })
    }
}
