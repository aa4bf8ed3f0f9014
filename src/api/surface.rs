//! `Surface`: the images of a pbuffer (RGBA8 colour, optional D24S8 depth/stencil) that a
//! context's default framebuffer renders into once `Context::set_default_surface` points it
//! there (EGL MakeCurrent with a pbuffer).

use std::sync::Arc;

use crate::api::context::limits;
use crate::api::error::GlError;
use crate::sampler::{Format, Image};

/// A pbuffer's images (RGBA8 colour, optional D24S8); cheap to clone: clones share the
/// images, so what one context draws another context (or the EGL surface's owner) reads.
#[derive(Clone)]
pub struct Surface {
    pub(crate) color: Arc<Image>,
    pub(crate) depth: Option<Arc<Image>>,
}

impl std::fmt::Debug for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Surface")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("depth_stencil", &self.depth.is_some())
            .finish()
    }
}

impl Surface {
    /// A `width`×`height` surface, cleared to zero. Sizes up to GL_MAX_VIEWPORT_DIMS
    /// (EGL pbuffers may be 0×0, their default size).
    pub fn new(width: u32, height: u32, depth_stencil: bool) -> Result<Surface, GlError> {
        let max = limits::MAX_VIEWPORT_DIMS as u32;
        if width > max || height > max {
            return Err(GlError::InvalidValue(
                "surface larger than GL_MAX_VIEWPORT_DIMS",
            ));
        }
        Ok(Surface {
            color: Arc::new(Image::new(width, height, Format::Rgba8)),
            depth: depth_stencil
                .then(|| Arc::new(Image::new(width, height, Format::Depth24Stencil8))),
        })
    }

    pub fn width(&self) -> u32 {
        self.color.width()
    }

    pub fn height(&self) -> u32 {
        self.color.height()
    }

    /// Whether it has a depth/stencil image.
    pub fn has_depth_stencil(&self) -> bool {
        self.depth.is_some()
    }

    /// Whether `other` is this surface (the same images).
    pub fn same_as(&self, other: &Surface) -> bool {
        Arc::ptr_eq(&self.color, &other.color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_sharing() {
        let s = Surface::new(4, 3, true).unwrap();
        assert_eq!((s.width(), s.height()), (4, 3));
        assert!(s.has_depth_stencil());
        let t = s.clone();
        assert!(t.same_as(&s));
        assert!(!Surface::new(4, 3, false).unwrap().same_as(&s));
        assert!(!Surface::new(4, 3, false).unwrap().has_depth_stencil());
        assert!(Surface::new(0, 0, false).is_ok());
        assert!(Surface::new(limits::MAX_VIEWPORT_DIMS as u32 + 1, 1, false).is_err());
    }
}
