//! ARB_bindless_texture's image half on the API side: glGetImageHandleARB (a handle per
//! texture, level, layered, layer and format, kept in the share group's `Bindless` tables),
//! glMakeImageHandleResidentARB / NonResidentARB and glIsImageHandleResidentARB (residency
//! per context, with the access it was made resident for), and the views a draw gets for
//! the resident handles (`image_unit::images_for_draw`). Image handles live in their own
//! range (`sampler::storage_image::IMAGE_HANDLE_BASE` up), apart from texture handles; a
//! shader that uses a forged or non-resident handle reads zero and its stores are dropped
//! (the draw's image set has no view for it).

use std::collections::HashMap;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::image_unit::{image_format, ImageUnit};
use crate::api::names::TextureName;
use crate::gl::enums as gl;
use crate::sampler::storage_image::IMAGE_HANDLE_BASE;

/// The image handles of a share group: each handle's image unit state (access is the
/// residency's), and the handle of each (texture, level, layered, layer, format), which
/// glGetImageHandleARB hands out again for the same arguments.
#[derive(Debug, Default)]
pub(crate) struct ImageHandles {
    pub owners: HashMap<u64, ImageUnit>,
    pub by_key: HashMap<(TextureName, i32, bool, i32, u32), u64>,
    /// Handles handed out so far (the next is `IMAGE_HANDLE_BASE + next + 1`).
    pub next: u32,
}

gl_commands! {
    /// glGetImageHandleARB: 0 on error.
    "glGetImageHandleARB"
    fn get_image_handle_arb(texture: u32, level: i32, layered: bool, layer: i32, format: u32)
        -> u64 = try_get_image_handle_arb;
    /// glMakeImageHandleResidentARB.
    "glMakeImageHandleResidentARB"
    fn make_image_handle_resident_arb(handle: u64, access: u32)
        = try_make_image_handle_resident_arb;
    /// glMakeImageHandleNonResidentARB.
    "glMakeImageHandleNonResidentARB"
    fn make_image_handle_non_resident_arb(handle: u64) = try_make_image_handle_non_resident_arb;
    /// glIsImageHandleResidentARB.
    "glIsImageHandleResidentARB"
    fn is_image_handle_resident_arb(handle: u64) -> bool = try_is_image_handle_resident_arb;
}

impl Context {
    pub(crate) fn try_get_image_handle_arb(
        &mut self,
        texture: u32,
        level: i32,
        layered: bool,
        layer: i32,
        format: u32,
    ) -> GlResult<u64> {
        let name = TextureName(texture);
        let tex = self
            .objs
            .textures
            .get(name)
            .filter(|_| texture != 0)
            .ok_or(GlError::InvalidValue("not an existing texture object"))?;
        if level < 0 || layer < 0 {
            return Err(GlError::InvalidValue("negative level or layer"));
        }
        if image_format(format).is_none() {
            return Err(GlError::InvalidValue("format is not an image unit format"));
        }
        // ARB_bindless_texture: INVALID_OPERATION when the texture is not complete, or
        // when its level is not there (a buffer texture's is its buffer). Images are not
        // filtered, so the filters do not take part (an integer texture with the initial
        // LINEAR filters is complete as an image).
        let level_there =
            tex.buffer.is_some() || tex.levels.get(level as usize).is_some_and(|l| l.is_some());
        let unfiltered = crate::sampler::SamplerState {
            min_filter: crate::gl::MinFilter::Nearest,
            mag_filter: crate::gl::MagFilter::Nearest,
            ..tex.state
        };
        // Checked in the order piglit's errors test expects: an incomplete texture first
        // (INVALID_OPERATION), then a level that does not exist or a layer past the
        // level's layers (INVALID_VALUE), then `layered` on a target without layers
        // (INVALID_OPERATION).
        if !tex.is_complete(&unfiltered) {
            return Err(GlError::InvalidOperation("the texture is not complete"));
        }
        if !level_there {
            return Err(GlError::InvalidValue(
                "the texture has no image at this level",
            ));
        }
        if tex.buffer.is_none() {
            let layers = tex
                .levels
                .get(level as usize)
                .and_then(|l| l.as_ref())
                .map_or(1, |img| img.depth());
            if !layered && layer as u32 >= layers {
                return Err(GlError::InvalidValue(
                    "layer is past the layers of the image at this level",
                ));
            }
        }
        if layered && !super::image_unit::is_layered_target(tex.target) {
            return Err(GlError::InvalidOperation(
                "layered is TRUE but the texture has no layers (not 3D, an array or a cube map)",
            ));
        }
        let key = (name, level, layered, layer, format);
        if let Some(&h) = self.objs.bindless.images.by_key.get(&key) {
            return Ok(h);
        }
        let images = &mut self.objs.bindless.images;
        let next = images
            .next
            .checked_add(1)
            .ok_or(GlError::OutOfMemory("image handles are exhausted"))?;
        images.owners.try_reserve(1).map_err(|_| oom())?;
        images.by_key.try_reserve(1).map_err(|_| oom())?;
        images.next = next;
        let h = IMAGE_HANDLE_BASE | next as u64;
        images.owners.insert(
            h,
            ImageUnit {
                texture: Some(name),
                level,
                layered,
                layer,
                access: gl::READ_WRITE,
                format,
            },
        );
        images.by_key.insert(key, h);
        // A handle freezes the texture's state, as texture handles do.
        if let Some(t) = self.objs.textures.get_mut(name) {
            t.has_handle = true;
        }
        Ok(h)
    }

    /// The image unit state `handle` names, if it is a live image handle (its texture not
    /// deleted).
    pub(crate) fn image_handle_owner(&self, handle: u64) -> Option<ImageUnit> {
        let u = *self.objs.bindless.images.owners.get(&handle)?;
        u.texture
            .filter(|t| self.objs.textures.get(*t).is_some())
            .map(|_| u)
    }

    fn check_image_handle(&self, handle: u64) -> GlResult<ImageUnit> {
        self.image_handle_owner(handle)
            .ok_or(GlError::InvalidOperation("not a valid image handle"))
    }

    pub(crate) fn try_make_image_handle_resident_arb(
        &mut self,
        handle: u64,
        access: u32,
    ) -> GlResult<()> {
        self.check_image_handle(handle)?;
        if !matches!(access, gl::READ_ONLY | gl::WRITE_ONLY | gl::READ_WRITE) {
            return Err(GlError::BadEnum("image access", access));
        }
        if self.resident_images.contains_key(&handle) {
            return Err(GlError::InvalidOperation(
                "image handle is already resident",
            ));
        }
        self.resident_images.insert(handle, access);
        Ok(())
    }

    pub(crate) fn try_make_image_handle_non_resident_arb(&mut self, handle: u64) -> GlResult<()> {
        self.check_image_handle(handle)?;
        if self.resident_images.remove(&handle).is_none() {
            return Err(GlError::InvalidOperation("image handle is not resident"));
        }
        Ok(())
    }

    pub(crate) fn try_is_image_handle_resident_arb(&mut self, handle: u64) -> GlResult<bool> {
        self.check_image_handle(handle)?;
        Ok(self.resident_images.contains_key(&handle))
    }

    /// The resident image handles with their unit state (access as made resident), for a
    /// draw's views; handles whose texture is gone are skipped.
    pub(crate) fn resident_image_units(&self) -> Vec<(u64, ImageUnit)> {
        self.resident_images
            .iter()
            .filter_map(|(&h, &access)| {
                let u = self.image_handle_owner(h)?;
                Some((h, ImageUnit { access, ..u }))
            })
            .collect()
    }
}

fn oom() -> GlError {
    GlError::OutOfMemory("image handle tables could not grow")
}
