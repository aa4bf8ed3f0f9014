//! ARB_bindless_texture on the API side (DESIGN.md §4): the handle tables (texture and
//! texture+sampler → handle, handle → owner), the context's resident set, and the entry
//! points with every error the extension specifies. Descriptors themselves live in the
//! sampler's global `DescriptorTable`; bound texture units become internal descriptors in
//! `draw.rs`.

use std::collections::HashMap;
use std::sync::Arc;

use crate::api::context::{dirty, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{SamplerName, TextureName};
use crate::api::texture::border_allowed;
use crate::sampler::TextureHandle;

/// Who a handle belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct HandleOwner {
    pub texture: TextureName,
    pub sampler: Option<SamplerName>,
    /// The sampler was deleted while this handle was resident: the handle (and the sampler
    /// state it captured) lives on until it is made non-resident or its texture is deleted
    /// (ARB_bindless_texture issue 7); the sampler's name may already name another object.
    pub sampler_deleted: bool,
}

/// The handle tables of a context (shared with a share group later).
#[derive(Debug, Default)]
pub(crate) struct Bindless {
    pub by_owner: HashMap<(TextureName, Option<SamplerName>), TextureHandle>,
    pub owners: HashMap<TextureHandle, HandleOwner>,
}

gl_commands! {
    /// glGetTextureHandleARB: 0 on error.
    "glGetTextureHandleARB"
    fn get_texture_handle_arb(texture: u32) -> u64 = try_get_texture_handle_arb;
    /// glGetTextureSamplerHandleARB: 0 on error.
    "glGetTextureSamplerHandleARB"
    fn get_texture_sampler_handle_arb(texture: u32, sampler: u32) -> u64
        = try_get_texture_sampler_handle_arb;
    /// glMakeTextureHandleResidentARB.
    "glMakeTextureHandleResidentARB"
    fn make_texture_handle_resident_arb(handle: u64) = try_make_texture_handle_resident_arb;
    /// glMakeTextureHandleNonResidentARB.
    "glMakeTextureHandleNonResidentARB"
    fn make_texture_handle_non_resident_arb(handle: u64)
        = try_make_texture_handle_non_resident_arb;
    /// glIsTextureHandleResidentARB.
    "glIsTextureHandleResidentARB"
    fn is_texture_handle_resident_arb(handle: u64) -> bool = try_is_texture_handle_resident_arb;
}

impl Context {
    fn texture_handle(&mut self, texture: u32, sampler: Option<u32>) -> GlResult<TextureHandle> {
        let tname = TextureName(texture);
        let tex = self
            .objs
            .textures
            .get(tname)
            .filter(|_| texture != 0)
            .ok_or(GlError::InvalidValue("not an existing texture object"))?;
        let sname = match sampler {
            None => None,
            Some(s) => {
                self.objs
                    .samplers
                    .get(SamplerName(s))
                    .filter(|_| s != 0)
                    .ok_or(GlError::InvalidValue("not an existing sampler object"))?;
                Some(SamplerName(s))
            }
        };
        let state = match sname.and_then(|s| self.objs.samplers.get(s)) {
            Some(s) => s.state,
            None => tex.state,
        };
        if let Some(&h) = self.objs.bindless.by_owner.get(&(tname, sname)) {
            // "The handle for each texture or texture/sampler pair is unique; the same handle
            // will be returned if GetTexture*HandleARB is called multiple times."
            return Ok(h);
        }
        if !tex.is_complete(&state) {
            return Err(GlError::InvalidOperation("texture is not complete"));
        }
        if !border_allowed(state.border_color) {
            return Err(GlError::InvalidOperation(
                "border colour is not (0,0,0,0), (0,0,0,1), (1,1,1,0) or (1,1,1,1)",
            ));
        }
        let h = self
            .descriptors
            .insert(tex.view(), state, false)
            .ok_or(GlError::OutOfMemory("descriptor table is full"))?;
        self.objs.bindless.by_owner.insert((tname, sname), h);
        self.objs.bindless.owners.insert(
            h,
            HandleOwner {
                texture: tname,
                sampler: sname,
                sampler_deleted: false,
            },
        );
        if let Some(t) = self.objs.textures.get_mut(tname) {
            t.has_handle = true;
        }
        if let Some(s) = sname.and_then(|s| self.objs.samplers.get_mut(s)) {
            s.has_handle = true;
        }
        Ok(h)
    }

    /// glGetTextureHandleARB.
    pub(crate) fn try_get_texture_handle_arb(&mut self, texture: u32) -> GlResult<u64> {
        self.texture_handle(texture, None)
            .map(TextureHandle::to_bits)
    }

    /// glGetTextureSamplerHandleARB.
    pub(crate) fn try_get_texture_sampler_handle_arb(
        &mut self,
        texture: u32,
        sampler: u32,
    ) -> GlResult<u64> {
        self.texture_handle(texture, Some(sampler))
            .map(TextureHandle::to_bits)
    }

    /// The handle's owner must exist (every residency command's first check).
    fn check_handle(&self, handle: TextureHandle) -> GlResult<()> {
        if !self.objs.bindless.owners.contains_key(&handle) {
            return Err(GlError::InvalidOperation("not a texture handle"));
        }
        Ok(())
    }

    /// glMakeTextureHandleResidentARB.
    pub(crate) fn try_make_texture_handle_resident_arb(&mut self, handle: u64) -> GlResult<()> {
        let handle = TextureHandle::from_bits(handle);
        self.check_handle(handle)?;
        if self.resident.contains(handle) {
            return Err(GlError::InvalidOperation("handle is already resident"));
        }
        // Copy-on-write: queued draws keep the resident set they saw (DESIGN.md §4).
        Arc::make_mut(&mut self.resident).insert(handle);
        self.dirty |= dirty::SAMPLER;
        Ok(())
    }

    /// glMakeTextureHandleNonResidentARB.
    pub(crate) fn try_make_texture_handle_non_resident_arb(&mut self, handle: u64) -> GlResult<()> {
        let handle = TextureHandle::from_bits(handle);
        self.check_handle(handle)?;
        if !self.resident.contains(handle) {
            return Err(GlError::InvalidOperation("handle is not resident"));
        }
        Arc::make_mut(&mut self.resident).remove(handle);
        self.dirty |= dirty::SAMPLER;
        // A handle whose sampler was deleted while it was resident was kept alive only by
        // its residency (issue 7): it is deleted now.
        if self
            .objs
            .bindless
            .owners
            .get(&handle)
            .is_some_and(|o| o.sampler_deleted)
        {
            self.free_handle(handle);
        }
        Ok(())
    }

    /// glIsTextureHandleResidentARB.
    pub(crate) fn try_is_texture_handle_resident_arb(&mut self, handle: u64) -> GlResult<bool> {
        let handle = TextureHandle::from_bits(handle);
        self.check_handle(handle)?;
        Ok(self.resident.contains(handle))
    }

    fn free_handles_where(&mut self, pred: impl Fn(&HandleOwner) -> bool) {
        let dead: Vec<TextureHandle> = self
            .objs
            .bindless
            .owners
            .iter()
            .filter(|(_, o)| pred(o))
            .map(|(&h, _)| h)
            .collect();
        for h in dead {
            self.free_handle(h);
        }
    }

    /// Deletes one handle: it is stale afterwards (INVALID_OPERATION where a handle is
    /// required).
    fn free_handle(&mut self, h: TextureHandle) {
        if let Some(o) = self.objs.bindless.owners.remove(&h) {
            if !o.sampler_deleted {
                self.objs.bindless.by_owner.remove(&(o.texture, o.sampler));
            }
        }
        if self.resident.contains(h) {
            Arc::make_mut(&mut self.resident).remove(h);
            self.dirty |= dirty::SAMPLER;
        }
        // Queued draws may still use the handle: its descriptor goes after the flush.
        self.retired_descriptors.push(h);
    }

    /// Deleting a texture frees its handles; they are stale afterwards.
    pub(crate) fn free_texture_handles(&mut self, t: TextureName) {
        self.free_handles_where(|o| o.texture == t);
    }

    /// Deleting a sampler frees the texture/sampler handles that use it, except those
    /// resident in this context: ARB_bindless_texture issue 7 says a sampler object is not
    /// deleted "until the object is not bound anywhere and there are no handles using the
    /// object that are resident in any context" (only deleting a *texture* makes its handles
    /// non-resident). Those handles keep the sampler state they captured and are deleted
    /// when made non-resident. (Residency in other contexts of the share group is not seen
    /// here: their handles are freed.)
    pub(crate) fn free_sampler_handles(&mut self, s: SamplerName) {
        let resident = self.resident.clone();
        let kept: Vec<TextureHandle> = self
            .objs
            .bindless
            .owners
            .iter()
            .filter(|(&h, o)| o.sampler == Some(s) && !o.sampler_deleted && resident.contains(h))
            .map(|(&h, _)| h)
            .collect();
        for h in kept {
            if let Some(o) = self.objs.bindless.owners.get_mut(&h) {
                o.sampler_deleted = true;
                self.objs.bindless.by_owner.remove(&(o.texture, o.sampler));
            }
        }
        self.free_handles_where(|o| o.sampler == Some(s) && !o.sampler_deleted);
    }
}
