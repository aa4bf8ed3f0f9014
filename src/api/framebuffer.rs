//! Framebuffer and renderbuffer objects (GL 4.5 core chapter 9), completeness (§9.4), draw and
//! read buffer selection, the draw target snapshot, glClearBuffer* (§17.4.3.1) and
//! glReadPixels (§18.2).

use std::sync::Arc;

use crate::api::context::{dirty, limits, Context};
use crate::api::dispatch::{gl_commands, Group};
use crate::api::error::{GlError, GlResult};
use crate::api::names::{FramebufferName, RenderbufferName, TextureName};
use crate::api::pixels;
use crate::api::texture::{color_renderable, cube_face_of};
use crate::gl::enums as gl;
use crate::raster::multisample::{self, SamplePlane};
use crate::raster::{ClearColor, RenderTarget};
use crate::sampler::{Format, Image};

/// What an attachment point holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Attachment {
    /// Level `level` of a texture: its layer `layer` (a cube face in table 9.3's order, a 3D
    /// slice or an array layer; 0 for 2D), or with `layered` every layer from 0 (GL 4.5 core
    /// §9.8: layer 0 is drawn until geometry shaders pick others; clears reach them all).
    Texture {
        name: TextureName,
        level: usize,
        layer: u32,
        layered: bool,
    },
    Renderbuffer(RenderbufferName),
}

/// How a glFramebufferTexture* command picks the image of a texture level.
#[derive(Copy, Clone, Debug)]
enum TexturePick {
    /// glFramebufferTexture: the whole level, layered when the texture has layers.
    Whole,
    /// glFramebufferTexture1D/2D: `textarget` (one of `want`, or INVALID_ENUM) names the
    /// texture's target or, for cube maps, a face.
    Target {
        textarget: u32,
        want: &'static [u32],
    },
    /// glFramebufferTexture3D: slice `zoffset` of a 3D texture.
    Slice(i32),
    /// glFramebufferTextureLayer: a layer of a 3D, array or cube map texture.
    Layer(i32),
}

/// A texture attachment as glGetFramebufferAttachmentParameteriv reports it.
#[derive(Copy, Clone, Debug)]
struct TextureAttachment {
    level: usize,
    layer: u32,
    layered: bool,
    /// The texture's target (GL_NONE when it has none).
    target: u32,
}

/// A framebuffer object.
#[derive(Clone, Debug)]
pub(crate) struct Framebuffer {
    pub colors: [Option<Attachment>; limits::MAX_COLOR_ATTACHMENTS as usize],
    pub depth: Option<Attachment>,
    pub stencil: Option<Attachment>,
    /// COLOR_ATTACHMENTi or NONE per draw buffer.
    pub draw_buffers: Vec<u32>,
    pub read_buffer: u32,
    /// FRAMEBUFFER_DEFAULT_*: the size and samples without attachments (`framebuffer_params`).
    pub defaults: crate::api::framebuffer_params::FramebufferDefaults,
}

impl Default for Framebuffer {
    fn default() -> Self {
        Framebuffer {
            colors: [None; limits::MAX_COLOR_ATTACHMENTS as usize],
            depth: None,
            stencil: None,
            draw_buffers: vec![gl::COLOR_ATTACHMENT0],
            read_buffer: gl::COLOR_ATTACHMENT0,
            defaults: Default::default(),
        }
    }
}

/// A renderbuffer object.
#[derive(Clone, Debug, Default)]
pub(crate) struct Renderbuffer {
    /// The image (sample 0 of a multisample renderbuffer).
    pub image: Option<Arc<Image>>,
    /// The internal format of the last storage call (GL_RENDERBUFFER_INTERNAL_FORMAT).
    pub format: Option<pixels::InternalFormat>,
    /// GL_RENDERBUFFER_SAMPLES: 0, or the sample count, with samples 1.. in `planes`
    /// (`raster::multisample`: one single-sample image per sample).
    pub samples: u32,
    pub planes: Vec<Arc<Image>>,
}

/// A framebuffer's images as a draw or a read sees them (`Context::framebuffer_buffers`).
pub(crate) struct Buffers {
    /// One entry per draw buffer (a draw) or the read buffer (a read): `None` for GL_NONE
    /// or an empty attachment point.
    pub colors: Vec<Option<Arc<Image>>>,
    pub depth: Option<Arc<Image>>,
    pub stencil: Option<Arc<Image>>,
    /// The framebuffer's size: the intersection of its attachments (GL 4.5 core §9.2).
    pub width: u32,
    pub height: u32,
    /// GL_SAMPLES: 0, or the sample count, the images above being sample 0 and `planes`
    /// samples 1.. (laid out as `colors`, `depth`, `stencil`).
    pub samples: u32,
    pub planes: Vec<SamplePlane>,
}

/// INVALID_FRAMEBUFFER_OPERATION for reading from (`read`) or drawing into a framebuffer
/// whose status is `status` (GL 4.5 core §9.4.4, §18.2.6, §18.3.1).
pub(crate) fn incomplete(status: u32, read: bool) -> GlError {
    GlError::InvalidFramebufferOperation(match (status, read) {
        (gl::FRAMEBUFFER_UNDEFINED, _) => "no default framebuffer (no surface)",
        (_, true) => "read framebuffer is incomplete",
        (_, false) => "draw framebuffer is incomplete",
    })
}

/// Which buffer of the read framebuffer a ReadPixels reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadSource {
    Color,
    Depth,
    Stencil,
    DepthStencil,
}

gl_commands! {
    /// glGenFramebuffers.
    "glGenFramebuffers" fn gen_framebuffers(n: i32) -> Vec<u32> = try_gen_framebuffers;
    /// glCreateFramebuffers.
    "glCreateFramebuffers" fn create_framebuffers(n: i32) -> Vec<u32> = try_create_framebuffers;
    /// glBindFramebuffer: GL_FRAMEBUFFER binds both draw and read.
    "glBindFramebuffer" fn bind_framebuffer(target: u32, framebuffer: u32) = try_bind_framebuffer;
    /// glTextureBarrier (GL 4.5 core §9.3.1): texels written by earlier draws are visible to
    /// later ones' texture fetches. softgl runs the queued work.
    "glTextureBarrier" fn texture_barrier() = try_texture_barrier;
    /// glDeleteFramebuffers: bound ones revert to the default framebuffer.
    "glDeleteFramebuffers" fn delete_framebuffers(framebuffers: &[u32]) = try_delete_framebuffers;
    /// glFramebufferTexture2D (GL 4.5 core §9.2.8).
    "glFramebufferTexture2D"
    fn framebuffer_texture_2d(target: u32, attachment: u32, textarget: u32, texture: u32, level: i32)
        = try_framebuffer_texture_2d;
    /// glFramebufferTexture1D (GL 4.5 core §9.2.8).
    "glFramebufferTexture1D"
    fn framebuffer_texture_1d(target: u32, attachment: u32, textarget: u32, texture: u32, level: i32)
        = try_framebuffer_texture_1d;
    /// glFramebufferTexture3D (GL 4.5 core §9.2.8): slice `zoffset` of a 3D texture.
    "glFramebufferTexture3D"
    fn framebuffer_texture_3d(target: u32, attachment: u32, textarget: u32, texture: u32, level: i32, zoffset: i32)
        = try_framebuffer_texture_3d;
    /// glFramebufferTextureLayer (GL 4.5 core §9.2.8): layer `layer` of a 3D, 2D array or
    /// cube map texture (a cube map's layer is its face, table 9.3).
    "glFramebufferTextureLayer"
    fn framebuffer_texture_layer(target: u32, attachment: u32, texture: u32, level: i32, layer: i32)
        = try_framebuffer_texture_layer;
    /// glNamedFramebufferTextureLayer (GL 4.5 core §9.2.8, DSA).
    "glNamedFramebufferTextureLayer"
    fn named_framebuffer_texture_layer(framebuffer: u32, attachment: u32, texture: u32, level: i32, layer: i32)
        = try_named_framebuffer_texture_layer;
    /// glFramebufferTexture (GL 4.5 core §9.2.8): a whole level; layered when the texture
    /// is 3D, an array or a cube map (layer 0 is drawn; clears reach every layer).
    "glFramebufferTexture"
    fn framebuffer_texture(target: u32, attachment: u32, texture: u32, level: i32)
        = try_framebuffer_texture;
    /// glNamedFramebufferTexture (GL 4.5 core §9.2.8, DSA).
    "glNamedFramebufferTexture"
    fn named_framebuffer_texture(framebuffer: u32, attachment: u32, texture: u32, level: i32)
        = try_named_framebuffer_texture;
    /// glGetFramebufferAttachmentParameteriv (GL 4.5 core §9.2.3).
    "glGetFramebufferAttachmentParameteriv"
    fn get_framebuffer_attachment_parameteriv(target: u32, attachment: u32, pname: u32) -> i32
        = try_get_framebuffer_attachment_parameteriv;
    /// glGetNamedFramebufferAttachmentParameteriv (GL 4.5 core §9.2.3, DSA; framebuffer 0
    /// is the default framebuffer).
    "glGetNamedFramebufferAttachmentParameteriv"
    fn get_named_framebuffer_attachment_parameteriv(framebuffer: u32, attachment: u32, pname: u32) -> i32
        = try_get_named_framebuffer_attachment_parameteriv;
    /// glFramebufferRenderbuffer.
    "glFramebufferRenderbuffer"
    fn framebuffer_renderbuffer(target: u32, attachment: u32, rbtarget: u32, renderbuffer: u32)
        = try_framebuffer_renderbuffer;
    /// glNamedFramebufferRenderbuffer (GL 4.5 core §9.2.7, DSA).
    "glNamedFramebufferRenderbuffer"
    fn named_framebuffer_renderbuffer(framebuffer: u32, attachment: u32, rbtarget: u32, renderbuffer: u32)
        = try_named_framebuffer_renderbuffer;
    /// glDrawBuffers (GL 4.5 core §17.4.1).
    "glDrawBuffers" fn draw_buffers(bufs: &[u32]) = try_draw_buffers;
    /// glReadBuffer.
    "glReadBuffer" fn read_buffer(src: u32) = try_read_buffer;
    /// glDrawBuffer (GL 4.5 core §17.4.1): glDrawBuffers of one buffer.
    "glDrawBuffer" fn draw_buffer(buf: u32) = try_draw_buffer;
    /// glNamedFramebufferDrawBuffer (DSA; 0 is the default framebuffer).
    "glNamedFramebufferDrawBuffer"
    fn named_framebuffer_draw_buffer(framebuffer: u32, buf: u32) = try_named_framebuffer_draw_buffer;
    /// glNamedFramebufferDrawBuffers (DSA; 0 is the default framebuffer).
    "glNamedFramebufferDrawBuffers"
    fn named_framebuffer_draw_buffers(framebuffer: u32, bufs: &[u32]) = try_named_framebuffer_draw_buffers;
    /// glNamedFramebufferReadBuffer (DSA; 0 is the default framebuffer).
    "glNamedFramebufferReadBuffer"
    fn named_framebuffer_read_buffer(framebuffer: u32, src: u32) = try_named_framebuffer_read_buffer;
    /// glGenRenderbuffers.
    "glGenRenderbuffers" fn gen_renderbuffers(n: i32) -> Vec<u32> = try_gen_renderbuffers;
    /// glCreateRenderbuffers.
    "glCreateRenderbuffers" fn create_renderbuffers(n: i32) -> Vec<u32> = try_create_renderbuffers;
    /// glBindRenderbuffer.
    "glBindRenderbuffer"
    fn bind_renderbuffer(target: u32, renderbuffer: u32) = try_bind_renderbuffer;
    /// glRenderbufferStorage (GL 4.5 core §9.2.4): single-sample storage.
    "glRenderbufferStorage"
    fn renderbuffer_storage(target: u32, internalformat: u32, width: i32, height: i32)
        = try_renderbuffer_storage;
    /// glRenderbufferStorageMultisample (GL 4.5 core §9.2.4): `samples` is rounded up to
    /// 2, 4 or 8; past GL_MAX_SAMPLES (8) is INVALID_VALUE.
    "glRenderbufferStorageMultisample"
    fn renderbuffer_storage_multisample(target: u32, samples: i32, internalformat: u32, width: i32, height: i32)
        = try_renderbuffer_storage_multisample;
    /// glNamedRenderbufferStorage (GL 4.5 core §9.2.4, DSA).
    "glNamedRenderbufferStorage"
    fn named_renderbuffer_storage(renderbuffer: u32, internalformat: u32, width: i32, height: i32)
        = try_named_renderbuffer_storage;
    /// glNamedRenderbufferStorageMultisample (GL 4.5 core §9.2.4, DSA).
    "glNamedRenderbufferStorageMultisample"
    fn named_renderbuffer_storage_multisample(renderbuffer: u32, samples: i32, internalformat: u32, width: i32, height: i32)
        = try_named_renderbuffer_storage_multisample;
    /// glGetRenderbufferParameteriv (GL 4.5 core §9.2.6) for the bound renderbuffer.
    "glGetRenderbufferParameteriv"
    fn get_renderbuffer_parameteriv(target: u32, pname: u32) -> i32
        = try_get_renderbuffer_parameteriv;
    /// glDeleteRenderbuffers: detached from the bound framebuffers.
    "glDeleteRenderbuffers"
    fn delete_renderbuffers(renderbuffers: &[u32]) = try_delete_renderbuffers;
    /// glCheckFramebufferStatus.
    "glCheckFramebufferStatus"
    fn check_framebuffer_status(target: u32) -> u32 = try_check_framebuffer_status;
    /// glCheckNamedFramebufferStatus (GL 4.5 core §9.4.2, DSA; framebuffer 0 is the
    /// default framebuffer).
    "glCheckNamedFramebufferStatus"
    fn check_named_framebuffer_status(framebuffer: u32, target: u32) -> u32
        = try_check_named_framebuffer_status;
    /// glClearBufferiv (GL 4.5 core §17.4.3.1): GL_STENCIL (draw buffer 0) to `value[0]`
    /// under the stencil write mask, or GL_COLOR (draw buffer `drawbuffer`, under the
    /// colour mask) to signed integers.
    "glClearBufferiv" fn clear_bufferiv(buffer: u32, drawbuffer: i32, value: &[i32]) = try_clear_bufferiv;
    /// glClearBufferuiv: GL_COLOR (draw buffer `drawbuffer`, under the colour mask) to
    /// unsigned integers.
    "glClearBufferuiv" fn clear_bufferuiv(buffer: u32, drawbuffer: i32, value: &[u32]) = try_clear_bufferuiv;
    /// glClearBufferfv: GL_COLOR (draw buffer `drawbuffer`, under the colour mask) or
    /// GL_DEPTH (draw buffer 0, under the depth mask).
    "glClearBufferfv" fn clear_bufferfv(buffer: u32, drawbuffer: i32, value: &[f32]) = try_clear_bufferfv;
    /// glClearBufferfi: GL_DEPTH_STENCIL, both at once (each under its mask).
    "glClearBufferfi"
    fn clear_bufferfi(buffer: u32, drawbuffer: i32, depth: f32, stencil: i32) = try_clear_bufferfi;
}

impl Context {
    /// The sample count of what `a` holds (0: single-sample) and its images of samples 1..
    fn attachment_samples(&self, a: Attachment) -> (u32, Vec<Arc<Image>>) {
        match a {
            // A multisample texture (`api::multisample`) keeps its samples as a
            // renderbuffer does; other textures are single-sample.
            Attachment::Texture { name, .. } => self
                .objs
                .textures
                .get(name)
                .filter(|t| t.kind().is_multisample())
                .map_or((0, Vec::new()), |t| (t.samples, t.planes.clone())),
            Attachment::Renderbuffer(r) => self
                .objs
                .renderbuffers
                .get(r)
                .map_or((0, Vec::new()), |rb| (rb.samples, rb.planes.clone())),
        }
    }

    pub(crate) fn attachment_image(&self, a: Attachment) -> Option<Arc<Image>> {
        self.attachment_image_at(a, 0)
    }

    /// The image `a` holds, for a layered attachment its layer `layer` (None past its last
    /// layer; other attachments ignore `layer`). A layer of a level with several (a cube
    /// face, 3D slice, array layer) is a view of that layer (`Image::layer_view`): drawing
    /// into it writes the texture.
    fn attachment_image_at(&self, a: Attachment, layer: u32) -> Option<Arc<Image>> {
        match a {
            Attachment::Texture {
                name,
                level,
                layer: first,
                layered,
            } => {
                let img = self.texture_level_image(name, level)?;
                let layer = if layered { first + layer } else { first };
                if layer == 0 && img.depth() == 1 {
                    return Some(img);
                }
                img.layer_view(layer).map(Arc::new)
            }
            Attachment::Renderbuffer(r) => self.objs.renderbuffers.get(r)?.image.clone(),
        }
    }

    /// Layers of `a` when it is layered (0 when not).
    fn attachment_layers(&self, a: Attachment) -> u32 {
        match a {
            Attachment::Texture {
                name,
                level,
                layered: true,
                ..
            } => self
                .texture_level_image(name, level)
                .map_or(0, |img| img.depth()),
            _ => 0,
        }
    }

    /// The internal format of what `a` holds (for its depth and stencil bits).
    fn attachment_format(&self, a: Attachment) -> Option<pixels::InternalFormat> {
        match a {
            Attachment::Texture { name, level, .. } => {
                self.objs.textures.get(name)?.level_format(level)
            }
            Attachment::Renderbuffer(r) => self.objs.renderbuffers.get(r)?.format,
        }
    }

    /// Bits of component `c` (4 depth, 5 stencil) of what `a` holds; images without a
    /// recorded format count their storage's.
    fn attachment_bits(&self, a: Attachment, c: usize) -> i32 {
        self.attachment_format(a)
            .or_else(|| {
                self.attachment_image(a)
                    .map(|i| pixels::InternalFormat::of_storage(i.format()))
            })
            .map_or(0, |f| f.component_sizes()[c])
    }

    /// glCheckFramebufferStatus's rules (GL 4.5 core §9.4.2) for a framebuffer object.
    pub(crate) fn framebuffer_status(&self, fb: &Framebuffer) -> u32 {
        let mut any = false;
        for a in fb.colors.iter().flatten() {
            any = true;
            // Compressed formats are not colour-renderable (GL 4.5 core table 8.14).
            if self
                .attachment_format(*a)
                .is_some_and(|f| crate::api::compressed::specific(f.gl).is_some())
            {
                return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
            }
            match self.attachment_image(*a) {
                Some(img)
                    if img.width() > 0 && img.height() > 0 && color_renderable(img.format()) => {}
                _ => return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            }
        }
        if let Some(a) = fb.depth {
            any = true;
            match self.attachment_image(a) {
                // A depth attachment must be depth-renderable (§9.4.1): depth bits.
                Some(img)
                    if img.width() > 0
                        && img.height() > 0
                        && img.format().is_depth()
                        && self.attachment_bits(a, 4) > 0 => {}
                _ => return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            }
        }
        if let Some(a) = fb.stencil {
            any = true;
            match self.attachment_image(a) {
                // Stencil-renderable (§9.4.1): stencil bits, which only D24S8 storage has
                // (DEPTH24_STENCIL8 and STENCIL_INDEX8; DEPTH_COMPONENT24 shares the storage
                // but has none).
                Some(img)
                    if img.width() > 0
                        && img.height() > 0
                        && img.format() == Format::Depth24Stencil8
                        && self.attachment_bits(a, 5) > 0 => {}
                _ => return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            }
            // Depth and stencil live in one image here; separate images are an unsupported
            // combination (GL 4.5 core §9.4.2 lets implementations refuse combinations).
            if fb.depth.is_some_and(|d| d != a) {
                return gl::FRAMEBUFFER_UNSUPPORTED;
            }
        }
        if !any {
            // GL 4.5 core §9.4.2: with no attachment, complete when the default width and
            // height are not zero (ARB_framebuffer_no_attachments).
            if fb.defaults.width == 0 || fb.defaults.height == 0 {
                return gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
            }
            return gl::FRAMEBUFFER_COMPLETE;
        }
        // Every attachment has the same number of samples (§9.4.2).
        let mut counts = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter())
            .map(|a| self.attachment_samples(*a).0);
        let first = counts.next();
        if counts.any(|n| Some(n) != first) {
            return gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
        }
        // Either every populated attachment is layered or none is, and layered colour
        // attachments come from textures of one target (§9.4.2).
        let all = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter());
        let layered = |a: &Attachment| matches!(a, Attachment::Texture { layered: true, .. });
        if all.clone().any(layered) && !all.clone().all(layered) {
            return gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
        }
        let mut color_targets = fb.colors.iter().flatten().filter_map(|a| match a {
            Attachment::Texture {
                name,
                layered: true,
                ..
            } => Some(self.objs.textures.get(*name).and_then(|t| t.target)),
            _ => None,
        });
        let first = color_targets.next();
        if color_targets.any(|t| Some(t) != first) {
            return gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
        }
        if !self.fixed_sample_locations_agree(fb) {
            return gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
        }
        gl::FRAMEBUFFER_COMPLETE
    }

    /// The images of the read (`read`) or draw framebuffer `fb` (`None`: the default one),
    /// or its status when it is incomplete or, with no surface, undefined (GL 4.5 core
    /// §9.4.2, §9.4.4). The one place that resolves draw and read buffers: draws, ReadPixels
    /// and blits all go through it.
    pub(crate) fn framebuffer_buffers(
        &self,
        fb: Option<FramebufferName>,
        read: bool,
    ) -> Result<Buffers, u32> {
        self.framebuffer_buffers_at(fb, read, 0)
    }

    /// `framebuffer_buffers` with layered attachments at their layer `layer` (reads, blits
    /// and draws see layer 0; clears reach every layer, GL 4.5 core §9.8).
    fn framebuffer_buffers_at(
        &self,
        fb: Option<FramebufferName>,
        read: bool,
        layer: u32,
    ) -> Result<Buffers, u32> {
        let Some(name) = fb else {
            let d = &self.default_fb;
            let s = d.surface.as_ref().ok_or(gl::FRAMEBUFFER_UNDEFINED)?;
            let buffer = if read { d.read_buffer } else { d.draw_buffer };
            return Ok(Buffers {
                colors: vec![(buffer != gl::NONE).then(|| s.color.clone())],
                // The surface's one D24S8 image is both its depth and its stencil buffer.
                depth: s.depth.clone(),
                stencil: s.depth.clone(),
                width: s.width(),
                height: s.height(),
                samples: 0,
                planes: Vec::new(),
            });
        };
        let fb = self
            .framebuffers
            .get(name)
            .ok_or(gl::FRAMEBUFFER_UNDEFINED)?;
        let status = self.framebuffer_status(fb);
        if status != gl::FRAMEBUFFER_COMPLETE {
            return Err(status);
        }
        let chosen: &[u32] = if read {
            std::slice::from_ref(&fb.read_buffer)
        } else {
            &fb.draw_buffers
        };
        let colors = chosen
            .iter()
            .map(|&b| {
                let i = b.checked_sub(gl::COLOR_ATTACHMENT0)? as usize;
                fb.colors
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|a| self.attachment_image_at(a, layer))
            })
            .collect();
        // The framebuffer's size is the intersection of its attachments (GL 4.5 core §9.2).
        let all = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter());
        let (mut width, mut height) = (u32::MAX, u32::MAX);
        let mut attached = false;
        for a in all {
            attached = true;
            if let Some(img) = self.attachment_image(*a) {
                width = width.min(img.width());
                height = height.min(img.height());
            }
        }
        if !attached {
            // No attachment (completeness made the defaults non-zero): the
            // FRAMEBUFFER_DEFAULT_* size and samples, and no image to store into.
            let d = fb.defaults;
            let samples = d.samples_in_use();
            return Ok(Buffers {
                colors,
                depth: None,
                stencil: None,
                width: d.width,
                height: d.height,
                samples,
                planes: vec![SamplePlane::default(); samples.saturating_sub(1) as usize],
            });
        }
        // Completeness gave every attachment the same count; the planes of sample s hold
        // each attachment's image s, laid out as the sample-0 images are.
        let samples = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter())
            .next()
            .map_or(0, |a| self.attachment_samples(*a).0);
        let n_planes = samples.saturating_sub(1) as usize;
        let mut planes = vec![SamplePlane::default(); n_planes];
        if samples > 0 {
            // A multisample array's planes hold every layer: the attachment's layer of each
            // (its `layer`, or `layer` of a layered one), as `attachment_image_at` picks.
            let plane_images = |a: Option<Attachment>| -> Vec<Option<Arc<Image>>> {
                let Some(a) = a else {
                    return vec![None; n_planes];
                };
                let imgs = self.attachment_samples(a).1;
                let pick = |img: &Arc<Image>| match a {
                    Attachment::Texture {
                        layer: first,
                        layered,
                        ..
                    } => {
                        let l = if layered { first + layer } else { first };
                        if l == 0 && img.depth() == 1 {
                            Some(img.clone())
                        } else {
                            img.layer_view(l).map(Arc::new)
                        }
                    }
                    Attachment::Renderbuffer(_) => Some(img.clone()),
                };
                (0..n_planes).map(|i| imgs.get(i).and_then(pick)).collect()
            };
            for &b in chosen {
                let a = b
                    .checked_sub(gl::COLOR_ATTACHMENT0)
                    .and_then(|i| fb.colors.get(i as usize).copied().flatten());
                for (p, img) in planes.iter_mut().zip(plane_images(a)) {
                    p.colors.push(img);
                }
            }
            for (p, img) in planes.iter_mut().zip(plane_images(fb.depth)) {
                p.depth = img;
            }
            // One attachment for both is one image per plane too (see below).
            if fb.stencil.is_some() && fb.stencil == fb.depth {
                for p in &mut planes {
                    p.stencil = p.depth.clone();
                }
            } else {
                for (p, img) in planes.iter_mut().zip(plane_images(fb.stencil)) {
                    p.stencil = img;
                }
            }
        }
        // One attachment for both is one image (a layer view made twice would be two, and
        // the rasterizer tests stencil on the depth image only when they are the same).
        let depth = fb.depth.and_then(|a| self.attachment_image_at(a, layer));
        let stencil = match fb.stencil {
            Some(a) if fb.depth == Some(a) => depth.clone(),
            a => a.and_then(|a| self.attachment_image_at(a, layer)),
        };
        Ok(Buffers {
            colors,
            depth,
            stencil,
            width,
            height,
            samples,
            planes,
        })
    }

    /// Queues the clear `call` of the draw framebuffer and, when its attachments are
    /// layered, the same clear of every further layer (GL 4.5 core §9.8: a clear reaches
    /// every layer of a layered attachment; an attachment with fewer layers than another
    /// drops out of the later ones).
    pub(crate) fn queue_clear_layers(&mut self, call: crate::raster::ClearCall) {
        let layers = self
            .draw_framebuffer
            .and_then(|n| self.framebuffers.get(n))
            .map_or(0, |fb| {
                fb.colors
                    .iter()
                    .flatten()
                    .chain(fb.depth.iter())
                    .chain(fb.stencil.iter())
                    .map(|a| self.attachment_layers(*a))
                    .max()
                    .unwrap_or(0)
            });
        let mut more = Vec::new();
        for layer in 1..layers {
            let Ok(b) = self.framebuffer_buffers_at(self.draw_framebuffer, false, layer) else {
                break;
            };
            let mut c = call.clone();
            // The draw buffers the first layer's clear leaves out (ClearBuffer of one
            // buffer) stay out.
            for (img, base) in c.target.colors.iter_mut().zip(b.colors) {
                if img.is_some() {
                    *img = base;
                }
            }
            c.target.depth = b.depth;
            c.target.stencil = b.stencil;
            // The layer's other samples (a draw buffer left out above stays out of them:
            // `multisample::plane_target`).
            c.target.planes = b.planes;
            more.push(c);
        }
        self.queue_clear(call);
        for c in more {
            self.queue_clear(c);
        }
    }

    /// Every layer of the draw framebuffer when its attachments are layered (GL 4.5 core
    /// §9.8), for a geometry shader's gl_Layer: as many as the attachment with the most
    /// has (one with fewer drops out of the later ones, as in `queue_clear_layers`).
    /// Empty when it is not layered.
    pub(crate) fn draw_layers(&self) -> Vec<crate::raster::LayerImages> {
        let Some(fb) = self.draw_framebuffer.and_then(|n| self.framebuffers.get(n)) else {
            return Vec::new();
        };
        let layers = fb
            .colors
            .iter()
            .flatten()
            .chain(fb.depth.iter())
            .chain(fb.stencil.iter())
            .map(|a| self.attachment_layers(*a))
            .max()
            .unwrap_or(0);
        (0..layers)
            .map_while(|layer| {
                let b = self
                    .framebuffer_buffers_at(self.draw_framebuffer, false, layer)
                    .ok()?;
                Some(crate::raster::LayerImages {
                    colors: b.colors,
                    depth: b.depth,
                    stencil: b.stencil,
                    planes: b.planes,
                })
            })
            .collect()
    }

    /// The draw framebuffer as a render target, or its status when incomplete.
    pub(crate) fn draw_target(&self) -> Result<RenderTarget, u32> {
        let b = self.framebuffer_buffers(self.draw_framebuffer, false)?;
        Ok(RenderTarget {
            colors: b.colors,
            depth: b.depth,
            stencil: b.stencil,
            width: b.width,
            height: b.height,
            samples: b.samples,
            planes: b.planes,
        })
    }

    /// The read framebuffer's image for ReadPixels of `src`.
    pub(crate) fn read_image(&self, src: ReadSource) -> GlResult<Arc<Image>> {
        let b = self
            .framebuffer_buffers(self.read_framebuffer, true)
            .map_err(|status| incomplete(status, true))?;
        // GL 4.5 core §18.2.6: a multisample read framebuffer is resolved by a blit first.
        if b.samples > 0 {
            return Err(GlError::InvalidOperation(
                "the read framebuffer is multisample (GL_SAMPLE_BUFFERS is 1)",
            ));
        }
        let image = match src {
            ReadSource::Color => b.colors.into_iter().next().flatten(),
            ReadSource::Depth => b.depth,
            ReadSource::Stencil => b.stencil,
            // Completeness keeps depth and stencil in one image (framebuffer_status).
            ReadSource::DepthStencil => b.depth.filter(|_| b.stencil.is_some()),
        };
        image.ok_or(GlError::InvalidOperation(
            "no image at the buffer read (GL_NONE, or nothing attached)",
        ))
    }

    /// glReadPixels (GL 4.5 core §18.2) from the read framebuffer, honouring the pixel
    /// store and GL_CLAMP_READ_COLOR, into a new buffer reaching the end of the last row. Flushes queued work
    /// first.
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
    ) -> Vec<u8> {
        self.dispatch("glReadPixels", Group::ByBody, Vec::new, |this| {
            let img = this.read_pixels_source(width, height, format, ty)?;
            this.flush_raster();
            let (w, h) = (width as usize, height as usize);
            let (store, mode) = (this.pack, this.read_pack_mode());
            pixels::pack(&img, x, y, w, h, format, ty, &store, mode)
        })
    }

    /// glReadPixels into `out`, which must hold the client image (rows padded to
    /// GL_PACK_ALIGNMENT, the last one not; too short: GL_INVALID_OPERATION). Only the
    /// pixels are written, as a C caller's memory is: no allocation, one copy per row when
    /// the formats match.
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels_into(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        out: &mut [u8],
    ) {
        self.read_pixels_with(x, y, width, height, format, ty, |_| Ok(out))
    }

    /// glReadPixels into the buffer `out(len)` gives once every check has passed (the C
    /// marshalling turns the application's pointer into it there).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_pixels_with<'o>(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
    ) {
        self.dispatch(
            "glReadPixels",
            Group::ByBody,
            || (),
            |this| {
                let img = this.read_pixels_source(width, height, format, ty)?;
                this.flush_raster();
                let (store, mode) = (this.pack, this.read_pack_mode());
                let size = [width as usize, height as usize, 1];
                pixels::pack_box(&img, [x, y, 0], size, format, ty, &store, mode, out)
            },
        )
    }

    /// glReadPixels with a GL_PIXEL_PACK_BUFFER bound: the pixels are written into that
    /// buffer at `offset` (the C `pixels` argument), GL 4.5 core §18.2: GL_INVALID_OPERATION
    /// when the buffer is mapped, the offset is not a multiple of the type's size, or the
    /// pixels would run past the end of the buffer. Copy-on-write: queued draws that read
    /// the buffer keep the store they saw.
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels_to_buffer(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) {
        self.dispatch(
            "glReadPixels",
            Group::ByBody,
            || (),
            |this| {
                let img = this.read_pixels_source(width, height, format, ty)?;
                let (w, h) = (width as usize, height as usize);
                let (store, mode) = (this.pack, this.read_pack_mode());
                let len = pixels::client_size(w, h, format, ty, &store)?;
                let type_size = pixels::type_size(ty)?;
                // The buffer's bytes: padding and skipped bytes keep them (§18.2).
                let old = this.with_group(|this| {
                    this.pixel_buffer_range(gl::PIXEL_PACK_BUFFER, offset, len, type_size)
                })?;
                this.flush_raster();
                let mut packed = Vec::new();
                let size = [w, h, 1];
                pixels::pack_box(&img, [x, y, 0], size, format, ty, &store, mode, |n| {
                    packed
                        .try_reserve_exact(n)
                        .map_err(|_| GlError::OutOfMemoryFor(n as u64, "bytes of pixels"))?;
                    packed.extend_from_slice(&old[offset..offset + n]);
                    Ok(&mut packed[..])
                })?;
                this.with_group(|this| this.store_bytes(gl::PIXEL_PACK_BUFFER, offset, &packed))
            },
        )
    }

    /// The image glReadPixels reads for `format`, after the size and type checks. The image
    /// is found under the share-group lock; the flush and the read happen after it is
    /// released, so other contexts of the group are not held up (share.rs).
    fn read_pixels_source(
        &mut self,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
    ) -> GlResult<Arc<Image>> {
        self.with_group(|this| {
            if width < 0 || height < 0 {
                return Err(GlError::InvalidValue("negative size"));
            }
            pixels::check_format_type(format, ty)?;
            let integer = matches!(
                format,
                gl::RGBA_INTEGER | gl::RGB_INTEGER | gl::RG_INTEGER | gl::RED_INTEGER
            );
            let src = match format {
                gl::RGBA | gl::RGB | gl::RG | gl::RED => ReadSource::Color,
                // Integer colour buffers (§18.2.8: only these formats read them, and they
                // read nothing else: `pixels::pack_box` checks the pair).
                _ if integer => ReadSource::Color,
                gl::DEPTH_COMPONENT => ReadSource::Depth,
                gl::STENCIL_INDEX => ReadSource::Stencil,
                gl::DEPTH_STENCIL => ReadSource::DepthStencil,
                _ => return Err(GlError::BadEnum("ReadPixels format", format)),
            };
            // UNSIGNED_SHORT / UNSIGNED_INT: colour and depth (normalized), not stencil.
            let wide = matches!(ty, gl::UNSIGNED_SHORT | gl::UNSIGNED_INT)
                && !matches!(src, ReadSource::Stencil);
            let int_type = integer
                && matches!(
                    ty,
                    gl::BYTE
                        | gl::UNSIGNED_BYTE
                        | gl::SHORT
                        | gl::UNSIGNED_SHORT
                        | gl::INT
                        | gl::UNSIGNED_INT
                );
            // The signed, half-float and packed 2_10_10_10_REV types read colour buffers
            // (`pixels::pack_box` converts them, and checks them against the buffer).
            let colour_type = matches!(src, ReadSource::Color)
                && matches!(
                    ty,
                    gl::BYTE
                        | gl::SHORT
                        | gl::INT
                        | gl::HALF_FLOAT
                        | gl::UNSIGNED_INT_2_10_10_10_REV
                );
            if !wide
                && !int_type
                && !colour_type
                && !matches!(ty, gl::UNSIGNED_BYTE | gl::FLOAT | gl::UNSIGNED_INT_24_8)
            {
                return Err(GlError::InvalidOperation(
                    "ReadPixels type valid in GL but not supported by softgl yet",
                ));
            }
            this.read_image(src)
        })
    }

    // ---- glClearBuffer* (GL 4.5 core §17.4.3.1) ----

    /// Queues a clear of the draw framebuffer with `make` filling in what it clears (the
    /// target, scissor and masks come from the current state).
    fn clear_buffer_with(
        &mut self,
        make: impl FnOnce(&mut crate::raster::ClearCall),
    ) -> GlResult<()> {
        self.update_derived();
        let target = self
            .derived
            .target
            .clone()
            .map_err(|s| incomplete(s, false))?;
        let f = &self.fixed;
        let mut call = crate::raster::ClearCall {
            target,
            color: None,
            color_mask: f.color_mask,
            depth: None,
            stencil: None,
            stencil_mask: f.stencil.clear_mask(),
            scissor: f.scissor_test.then_some(f.scissor_box),
        };
        make(&mut call);
        self.queue_clear_layers(call);
        Ok(())
    }

    /// The checks every glClearBuffer* makes of a depth or stencil `buffer`: draw buffer 0
    /// only (INVALID_VALUE otherwise).
    fn check_zs_drawbuffer(drawbuffer: i32) -> GlResult<()> {
        if drawbuffer != 0 {
            return Err(GlError::InvalidValue(
                "draw buffer of a depth or stencil clear is not zero",
            ));
        }
        Ok(())
    }

    pub(crate) fn try_clear_bufferiv(
        &mut self,
        buffer: u32,
        drawbuffer: i32,
        value: &[i32],
    ) -> GlResult<()> {
        match buffer {
            gl::STENCIL => {
                Self::check_zs_drawbuffer(drawbuffer)?;
                let &[v, ..] = value else {
                    return Err(GlError::InvalidValue("no stencil value"));
                };
                // Masked to the buffer's 8 bits, as glClearStencil's value (§17.4.3).
                self.clear_buffer_with(|c| c.stencil = Some(v as u8))
            }
            gl::COLOR => {
                let &[r, g, b, a, ..] = value else {
                    return Err(GlError::InvalidValue("fewer than 4 colour components"));
                };
                let bits = [r, g, b, a].map(|v| v as u32);
                self.clear_color_buffer(drawbuffer, ClearColor::Int { bits, signed: true })
            }
            _ => Err(GlError::BadEnum("clear buffer", buffer)),
        }
    }

    pub(crate) fn try_clear_bufferuiv(
        &mut self,
        buffer: u32,
        drawbuffer: i32,
        value: &[u32],
    ) -> GlResult<()> {
        if buffer != gl::COLOR {
            return Err(GlError::BadEnum("clear buffer", buffer));
        }
        let &[r, g, b, a, ..] = value else {
            return Err(GlError::InvalidValue("fewer than 4 colour components"));
        };
        let bits = [r, g, b, a];
        self.clear_color_buffer(
            drawbuffer,
            ClearColor::Int {
                bits,
                signed: false,
            },
        )
    }

    /// Clears colour draw buffer `drawbuffer` alone to `color` (GL 4.5 core §17.4.3.1). A
    /// value whose type does not match the buffer's (integers into a fixed- or
    /// floating-point buffer, floats into an integer one) is "not an error", its result
    /// undefined: it converts as `ClearColor` says.
    fn clear_color_buffer(&mut self, drawbuffer: i32, color: ClearColor) -> GlResult<()> {
        Self::check_color_drawbuffer(drawbuffer)?;
        let i = drawbuffer as usize;
        self.clear_buffer_with(|c| {
            // Only draw buffer `i`; the others are left out of the target.
            for (k, img) in c.target.colors.iter_mut().enumerate() {
                if k != i {
                    *img = None;
                }
            }
            c.color = Some(color);
        })
    }

    /// A colour `drawbuffer` must be below GL_MAX_DRAW_BUFFERS (INVALID_VALUE).
    fn check_color_drawbuffer(drawbuffer: i32) -> GlResult<()> {
        if drawbuffer < 0 || drawbuffer as u32 >= limits::MAX_DRAW_BUFFERS {
            return Err(GlError::InvalidValue(
                "draw buffer past GL_MAX_DRAW_BUFFERS",
            ));
        }
        Ok(())
    }

    pub(crate) fn try_clear_bufferfv(
        &mut self,
        buffer: u32,
        drawbuffer: i32,
        value: &[f32],
    ) -> GlResult<()> {
        match buffer {
            gl::COLOR => {
                let &[r, g, b, a, ..] = value else {
                    return Err(GlError::InvalidValue("fewer than 4 colour components"));
                };
                let v = [r, g, b, a];
                let color = if self.fixed.framebuffer_srgb {
                    ClearColor::Linear(v)
                } else {
                    ClearColor::Float(v)
                };
                self.clear_color_buffer(drawbuffer, color)
            }
            gl::DEPTH => {
                Self::check_zs_drawbuffer(drawbuffer)?;
                let &[d, ..] = value else {
                    return Err(GlError::InvalidValue("no depth value"));
                };
                let write = self.fixed.depth_mask;
                self.clear_buffer_with(|c| c.depth = write.then_some(f64::from(d)))
            }
            _ => Err(GlError::BadEnum("clear buffer", buffer)),
        }
    }

    pub(crate) fn try_clear_bufferfi(
        &mut self,
        buffer: u32,
        drawbuffer: i32,
        depth: f32,
        stencil: i32,
    ) -> GlResult<()> {
        if buffer != gl::DEPTH_STENCIL {
            return Err(GlError::BadEnum("clear buffer", buffer));
        }
        Self::check_zs_drawbuffer(drawbuffer)?;
        let write = self.fixed.depth_mask;
        self.clear_buffer_with(|c| {
            c.depth = write.then_some(f64::from(depth));
            c.stencil = Some(stencil as u8);
        })
    }

    // ---- framebuffer objects ----

    pub(crate) fn try_gen_framebuffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.framebuffers.gen_many(n))
    }

    pub(crate) fn try_create_framebuffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.framebuffers.create_many(n, Framebuffer::default)
        })
    }

    /// glIsFramebuffer.
    pub fn is_framebuffer(&self, framebuffer: u32) -> bool {
        self.framebuffers
            .get(FramebufferName(framebuffer))
            .is_some()
    }

    /// Runs the queued work when it may render into textures of the bound draw framebuffer,
    /// before that binding or one of its attachments changes: the draws queued after it may
    /// sample those textures, and a scene runs tile by tile, so a later draw's tile could
    /// otherwise read texels an earlier draw has not written yet in another tile (GL 4.5
    /// core §9.3: only a feedback loop within one framebuffer is undefined).
    pub(crate) fn flush_texture_renders(&mut self) {
        if !self.raster.pending() {
            return;
        }
        let renders_to_textures = self
            .draw_framebuffer
            .and_then(|n| self.framebuffers.get(n))
            .is_some_and(|fb| {
                fb.colors
                    .iter()
                    .chain([&fb.depth, &fb.stencil])
                    .flatten()
                    .any(|a| matches!(a, Attachment::Texture { .. }))
            });
        if renders_to_textures {
            self.flush_raster();
        }
    }

    pub(crate) fn try_texture_barrier(&mut self) -> GlResult<()> {
        self.flush_raster();
        Ok(())
    }

    pub(crate) fn try_bind_framebuffer(&mut self, target: u32, framebuffer: u32) -> GlResult<()> {
        if !matches!(
            target,
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER | gl::READ_FRAMEBUFFER
        ) {
            return Err(GlError::BadEnum("framebuffer target", target));
        }
        let name = if framebuffer == 0 {
            None
        } else {
            let n = FramebufferName(framebuffer);
            if !self.framebuffers.ensure(n, Framebuffer::default) {
                return Err(GlError::InvalidOperation("not a framebuffer name"));
            }
            Some(n)
        };
        if target != gl::READ_FRAMEBUFFER {
            if self.draw_framebuffer != name {
                self.flush_texture_renders();
            }
            self.draw_framebuffer = name;
        }
        if target != gl::DRAW_FRAMEBUFFER {
            self.read_framebuffer = name;
        }
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    pub(crate) fn try_delete_framebuffers(&mut self, framebuffers: &[u32]) -> GlResult<()> {
        for &f in framebuffers {
            let n = FramebufferName(f);
            if self.draw_framebuffer == Some(n) {
                self.flush_texture_renders();
                self.draw_framebuffer = None;
            }
            if self.read_framebuffer == Some(n) {
                self.read_framebuffer = None;
            }
            self.framebuffers.remove(n);
        }
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    /// The framebuffer object bound to `target` (INVALID_ENUM for a bad target,
    /// INVALID_OPERATION for the default framebuffer, which has no attachment points).
    fn target_framebuffer_name(&self, target: u32) -> GlResult<FramebufferName> {
        let name = match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => self.draw_framebuffer,
            gl::READ_FRAMEBUFFER => self.read_framebuffer,
            _ => return Err(GlError::BadEnum("framebuffer target", target)),
        };
        let name = name.ok_or(GlError::InvalidOperation(
            "the default framebuffer has no attachments to change",
        ))?;
        self.framebuffers
            .get(name)
            .map(|_| name)
            .ok_or(GlError::InvalidOperation("no framebuffer"))
    }

    /// The framebuffer object a DSA command names (GL 4.5 core §9.2: INVALID_OPERATION
    /// unless `framebuffer` is an existing framebuffer object).
    fn named_framebuffer(&self, framebuffer: u32) -> GlResult<FramebufferName> {
        let name = FramebufferName(framebuffer);
        match self.framebuffers.get(name) {
            Some(_) if framebuffer != 0 => Ok(name),
            _ => Err(GlError::InvalidOperation(
                "not the name of an existing framebuffer object",
            )),
        }
    }

    fn set_attachment(
        &mut self,
        fb: FramebufferName,
        attachment: u32,
        a: Option<Attachment>,
    ) -> GlResult<()> {
        if self.draw_framebuffer == Some(fb) {
            self.flush_texture_renders();
        }
        let fb = self
            .framebuffers
            .get_mut(fb)
            .ok_or(GlError::InvalidOperation("no framebuffer"))?;
        match attachment {
            gl::DEPTH_ATTACHMENT => fb.depth = a,
            gl::STENCIL_ATTACHMENT => fb.stencil = a,
            gl::DEPTH_STENCIL_ATTACHMENT => {
                fb.depth = a;
                fb.stencil = a;
            }
            _ => {
                let i = attachment.wrapping_sub(gl::COLOR_ATTACHMENT0);
                fb.colors[i as usize] = a;
            }
        }
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    fn check_attachment_point(attachment: u32) -> GlResult<()> {
        match attachment {
            gl::DEPTH_ATTACHMENT | gl::STENCIL_ATTACHMENT | gl::DEPTH_STENCIL_ATTACHMENT => Ok(()),
            a if (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + 32).contains(&a) => {
                if a - gl::COLOR_ATTACHMENT0 >= limits::MAX_COLOR_ATTACHMENTS {
                    // GL 4.5 core §9.2.7: past MAX_COLOR_ATTACHMENTS is INVALID_OPERATION.
                    return Err(GlError::InvalidOperation("past GL_MAX_COLOR_ATTACHMENTS"));
                }
                Ok(())
            }
            _ => Err(GlError::BadEnum("attachment point", attachment)),
        }
    }

    /// glFramebufferTexture* and glNamedFramebufferTexture* (GL 4.5 core §9.2.8): attaches
    /// level `level` of `texture` to `attachment` of `fb` as `how` picks the image, after
    /// the checks every form makes. Texture 0 detaches (the other arguments are ignored).
    fn attach_texture(
        &mut self,
        fb: FramebufferName,
        attachment: u32,
        texture: u32,
        level: i32,
        how: TexturePick,
    ) -> GlResult<()> {
        Self::check_attachment_point(attachment)?;
        if let TexturePick::Target { textarget, want } = how {
            // INVALID_ENUM for a textarget the command never takes (table 9.2), even before
            // the texture is looked at; with texture 0 it is ignored.
            if texture != 0 && !want.contains(&textarget) {
                return Err(GlError::InvalidEnum("textarget"));
            }
        }
        if texture == 0 {
            return self.set_attachment(fb, attachment, None);
        }
        let name = TextureName(texture);
        // A name from glGenTextures that was never bound is not a texture object yet.
        let Some(tex_target) = self.objs.textures.get(name).and_then(|t| t.target) else {
            return Err(GlError::InvalidOperation("not a texture"));
        };
        if level < 0 || level as usize >= limits::MAX_MIP_LEVELS {
            return Err(GlError::InvalidValue("level out of range"));
        }
        // Rectangle and multisample textures have level 0 only.
        if level != 0
            && matches!(
                tex_target,
                gl::TEXTURE_RECTANGLE
                    | gl::TEXTURE_2D_MULTISAMPLE
                    | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
            )
        {
            return Err(GlError::InvalidValue("level of a single-level texture"));
        }
        let is_layered_target = matches!(
            tex_target,
            gl::TEXTURE_3D
                | gl::TEXTURE_CUBE_MAP
                | gl::TEXTURE_1D_ARRAY
                | gl::TEXTURE_2D_ARRAY
                | gl::TEXTURE_CUBE_MAP_ARRAY
                | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        );
        if matches!(how, TexturePick::Layer(l) if l < 0) {
            // Checked before the texture's target, as the spec lists it: any texture.
            return Err(GlError::InvalidValue("negative layer"));
        }
        let mismatch = GlError::InvalidOperation("textarget does not match the texture");
        let (layer, layered) = match how {
            TexturePick::Whole => {
                if tex_target == gl::TEXTURE_BUFFER {
                    return Err(GlError::InvalidOperation("a buffer texture has no image"));
                }
                // Every layer (all faces of a cube) at once: a layered attachment.
                (0, is_layered_target)
            }
            TexturePick::Target { textarget, .. } => {
                if let Some(face) = cube_face_of(textarget) {
                    if tex_target != gl::TEXTURE_CUBE_MAP {
                        return Err(mismatch);
                    }
                    (face, false)
                } else if textarget != tex_target {
                    return Err(mismatch);
                } else {
                    (0, false)
                }
            }
            TexturePick::Slice(zoffset) => {
                if tex_target != gl::TEXTURE_3D {
                    return Err(mismatch);
                }
                if !(0..limits::MAX_ARRAY_TEXTURE_LAYERS).contains(&zoffset) {
                    return Err(GlError::InvalidValue("zoffset past GL_MAX_3D_TEXTURE_SIZE"));
                }
                (zoffset as u32, false)
            }
            TexturePick::Layer(layer) => {
                if !is_layered_target {
                    return Err(GlError::InvalidOperation(
                        "not a 3D, array or cube map texture",
                    ));
                }
                // 3D: MAX_3D_TEXTURE_SIZE; arrays: MAX_ARRAY_TEXTURE_LAYERS (both 2048 here);
                // a cube map's layer is its face (table 9.3).
                let max = if tex_target == gl::TEXTURE_CUBE_MAP {
                    6
                } else {
                    limits::MAX_ARRAY_TEXTURE_LAYERS
                };
                if !(0..max).contains(&layer) {
                    return Err(GlError::InvalidValue("layer out of range"));
                }
                (layer as u32, false)
            }
        };
        self.set_attachment(
            fb,
            attachment,
            Some(Attachment::Texture {
                name,
                level: level as usize,
                layer,
                layered,
            }),
        )
    }

    pub(crate) fn try_framebuffer_texture(
        &mut self,
        target: u32,
        attachment: u32,
        texture: u32,
        level: i32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        self.attach_texture(fb, attachment, texture, level, TexturePick::Whole)
    }

    pub(crate) fn try_named_framebuffer_texture(
        &mut self,
        framebuffer: u32,
        attachment: u32,
        texture: u32,
        level: i32,
    ) -> GlResult<()> {
        let fb = self.named_framebuffer(framebuffer)?;
        self.attach_texture(fb, attachment, texture, level, TexturePick::Whole)
    }

    pub(crate) fn try_framebuffer_texture_2d(
        &mut self,
        target: u32,
        attachment: u32,
        textarget: u32,
        texture: u32,
        level: i32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        let how = TexturePick::Target {
            textarget,
            want: &[
                gl::TEXTURE_2D,
                gl::TEXTURE_RECTANGLE,
                gl::TEXTURE_2D_MULTISAMPLE,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X,
                gl::TEXTURE_CUBE_MAP_NEGATIVE_X,
                gl::TEXTURE_CUBE_MAP_POSITIVE_Y,
                gl::TEXTURE_CUBE_MAP_NEGATIVE_Y,
                gl::TEXTURE_CUBE_MAP_POSITIVE_Z,
                gl::TEXTURE_CUBE_MAP_NEGATIVE_Z,
            ],
        };
        self.attach_texture(fb, attachment, texture, level, how)
    }

    pub(crate) fn try_framebuffer_texture_1d(
        &mut self,
        target: u32,
        attachment: u32,
        textarget: u32,
        texture: u32,
        level: i32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        let how = TexturePick::Target {
            textarget,
            want: &[gl::TEXTURE_1D],
        };
        self.attach_texture(fb, attachment, texture, level, how)
    }

    pub(crate) fn try_framebuffer_texture_3d(
        &mut self,
        target: u32,
        attachment: u32,
        textarget: u32,
        texture: u32,
        level: i32,
        zoffset: i32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        if texture != 0 && textarget != gl::TEXTURE_3D {
            return Err(GlError::InvalidEnum("textarget"));
        }
        self.attach_texture(fb, attachment, texture, level, TexturePick::Slice(zoffset))
    }

    pub(crate) fn try_framebuffer_texture_layer(
        &mut self,
        target: u32,
        attachment: u32,
        texture: u32,
        level: i32,
        layer: i32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        self.attach_texture(fb, attachment, texture, level, TexturePick::Layer(layer))
    }

    pub(crate) fn try_named_framebuffer_texture_layer(
        &mut self,
        framebuffer: u32,
        attachment: u32,
        texture: u32,
        level: i32,
        layer: i32,
    ) -> GlResult<()> {
        let fb = self.named_framebuffer(framebuffer)?;
        self.attach_texture(fb, attachment, texture, level, TexturePick::Layer(layer))
    }

    pub(crate) fn try_get_framebuffer_attachment_parameteriv(
        &mut self,
        target: u32,
        attachment: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let bound = match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => self.draw_framebuffer,
            gl::READ_FRAMEBUFFER => self.read_framebuffer,
            _ => return Err(GlError::BadEnum("framebuffer target", target)),
        };
        self.attachment_parameter(bound, attachment, pname)
    }

    pub(crate) fn try_get_named_framebuffer_attachment_parameteriv(
        &mut self,
        framebuffer: u32,
        attachment: u32,
        pname: u32,
    ) -> GlResult<i32> {
        // Framebuffer 0 is the default framebuffer here (GL 4.5 core §9.2.3).
        let bound = match framebuffer {
            0 => None,
            f => Some(self.named_framebuffer(f)?),
        };
        self.attachment_parameter(bound, attachment, pname)
    }

    fn attachment_parameter(
        &self,
        bound: Option<FramebufferName>,
        attachment: u32,
        pname: u32,
    ) -> GlResult<i32> {
        // What is attached: (object type, name, texture attachment, internal format).
        type Found = (
            u32,
            u32,
            Option<TextureAttachment>,
            Option<pixels::InternalFormat>,
        );
        let found: Option<Found> = match bound {
            None => {
                // The default framebuffer: its buffers by name (§9.2.3). A pbuffer has a
                // back buffer only (EGL 1.5 §3.5.2).
                let s = self.default_fb.surface.as_ref();
                let of = |img: &Arc<Image>| pixels::InternalFormat::of_storage(img.format());
                let image = match attachment {
                    gl::BACK_LEFT | gl::BACK => s.map(|s| of(&s.color)),
                    gl::FRONT_LEFT | gl::FRONT_RIGHT | gl::BACK_RIGHT | gl::FRONT => None,
                    gl::DEPTH | gl::STENCIL => s.and_then(|s| s.depth.as_ref()).map(of),
                    _ => return Err(GlError::BadEnum("default framebuffer buffer", attachment)),
                };
                image.map(|f| (gl::FRAMEBUFFER_DEFAULT, 0, None, Some(f)))
            }
            Some(name) => {
                Self::check_attachment_point(attachment)?;
                let fb = self
                    .framebuffers
                    .get(name)
                    .ok_or(GlError::InvalidOperation("no framebuffer"))?;
                let a = match attachment {
                    gl::DEPTH_ATTACHMENT => fb.depth,
                    gl::STENCIL_ATTACHMENT => fb.stencil,
                    gl::DEPTH_STENCIL_ATTACHMENT => {
                        if fb.depth != fb.stencil {
                            return Err(GlError::InvalidOperation(
                                "different images at depth and stencil",
                            ));
                        }
                        fb.depth
                    }
                    c => fb.colors[(c - gl::COLOR_ATTACHMENT0) as usize],
                };
                a.map(|a| match a {
                    Attachment::Texture {
                        name,
                        level,
                        layer,
                        layered,
                    } => {
                        let t = self.objs.textures.get(name);
                        let f = t.and_then(|t| t.level_format(level));
                        let target = t.and_then(|t| t.target).unwrap_or(gl::NONE);
                        let ta = TextureAttachment {
                            level,
                            layer,
                            layered,
                            target,
                        };
                        (gl::TEXTURE, name.0, Some(ta), f)
                    }
                    Attachment::Renderbuffer(r) => {
                        let f = self.objs.renderbuffers.get(r).and_then(|rb| rb.format);
                        (gl::RENDERBUFFER, r.0, None, f)
                    }
                })
            }
        };
        let Some((ty, obj, tex, format)) = found else {
            // Nothing attached: only the type and name may be asked (§9.2.3).
            return match pname {
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => Ok(gl::NONE as i32),
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => Ok(0),
                _ => Err(GlError::InvalidOperation("nothing attached there")),
            };
        };
        let size = |i: usize| format.map_or(0, |f| f.component_sizes()[i]);
        Ok(match pname {
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => ty as i32,
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => obj as i32,
            gl::FRAMEBUFFER_ATTACHMENT_RED_SIZE => size(0),
            gl::FRAMEBUFFER_ATTACHMENT_GREEN_SIZE => size(1),
            gl::FRAMEBUFFER_ATTACHMENT_BLUE_SIZE => size(2),
            gl::FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE => size(3),
            gl::FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE => size(4),
            gl::FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE => size(5),
            gl::FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE => {
                if attachment == gl::DEPTH_STENCIL_ATTACHMENT {
                    return Err(GlError::InvalidOperation(
                        "depth and stencil components differ in type",
                    ));
                }
                if matches!(attachment, gl::STENCIL_ATTACHMENT | gl::STENCIL) {
                    gl::UNSIGNED_INT as i32
                } else {
                    format.map_or(gl::NONE, |f| f.component_type()) as i32
                }
            }
            gl::FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING => {
                format.map_or(gl::LINEAR, |f| f.color_encoding()) as i32
            }
            gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL if tex.is_some() => {
                tex.map_or(0, |t| t.level as i32)
            }
            // The face of a cube map (POSITIVE_X for a layered one, as Mesa answers), else
            // NONE (§9.2.3).
            gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE => match tex {
                Some(t) if t.target == gl::TEXTURE_CUBE_MAP => {
                    (gl::TEXTURE_CUBE_MAP_POSITIVE_X + t.layer) as i32
                }
                Some(_) => gl::NONE as i32,
                None => return Err(GlError::BadEnum("attachment parameter", pname)),
            },
            // The layer of a 3D or array texture; zero otherwise (a cube map's layer is
            // its face, above).
            gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER => match tex {
                Some(t) if t.target != gl::TEXTURE_CUBE_MAP => t.layer as i32,
                Some(_) => 0,
                None => return Err(GlError::BadEnum("attachment parameter", pname)),
            },
            gl::FRAMEBUFFER_ATTACHMENT_LAYERED => match tex {
                Some(t) => i32::from(t.layered),
                None => return Err(GlError::BadEnum("attachment parameter", pname)),
            },
            _ => return Err(GlError::BadEnum("attachment parameter", pname)),
        })
    }

    pub(crate) fn try_framebuffer_renderbuffer(
        &mut self,
        target: u32,
        attachment: u32,
        rbtarget: u32,
        renderbuffer: u32,
    ) -> GlResult<()> {
        let fb = self.target_framebuffer_name(target)?;
        self.attach_renderbuffer(fb, attachment, rbtarget, renderbuffer)
    }

    pub(crate) fn try_named_framebuffer_renderbuffer(
        &mut self,
        framebuffer: u32,
        attachment: u32,
        rbtarget: u32,
        renderbuffer: u32,
    ) -> GlResult<()> {
        let fb = self.named_framebuffer(framebuffer)?;
        self.attach_renderbuffer(fb, attachment, rbtarget, renderbuffer)
    }

    fn attach_renderbuffer(
        &mut self,
        fb: FramebufferName,
        attachment: u32,
        rbtarget: u32,
        renderbuffer: u32,
    ) -> GlResult<()> {
        Self::check_attachment_point(attachment)?;
        if rbtarget != gl::RENDERBUFFER {
            return Err(GlError::InvalidEnum("renderbuffer target"));
        }
        if renderbuffer == 0 {
            return self.set_attachment(fb, attachment, None);
        }
        let name = RenderbufferName(renderbuffer);
        if self.objs.renderbuffers.get(name).is_none() {
            return Err(GlError::InvalidOperation("not a renderbuffer"));
        }
        self.set_attachment(fb, attachment, Some(Attachment::Renderbuffer(name)))
    }

    pub(crate) fn try_check_framebuffer_status(&mut self, target: u32) -> GlResult<u32> {
        let name = match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => self.draw_framebuffer,
            gl::READ_FRAMEBUFFER => self.read_framebuffer,
            _ => return Err(GlError::BadEnum("framebuffer target", target)),
        };
        Ok(match name.and_then(|n| self.framebuffers.get(n)) {
            // GL 4.5 core §9.4.2: FRAMEBUFFER_UNDEFINED for the default framebuffer when it
            // does not exist.
            None if self.default_fb.surface.is_none() => gl::FRAMEBUFFER_UNDEFINED,
            None => gl::FRAMEBUFFER_COMPLETE,
            Some(fb) => self.framebuffer_status(fb),
        })
    }

    pub(crate) fn try_check_named_framebuffer_status(
        &mut self,
        framebuffer: u32,
        target: u32,
    ) -> GlResult<u32> {
        if !matches!(
            target,
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER | gl::READ_FRAMEBUFFER
        ) {
            return Err(GlError::BadEnum("framebuffer target", target));
        }
        if framebuffer == 0 {
            return Ok(if self.default_fb.surface.is_none() {
                gl::FRAMEBUFFER_UNDEFINED
            } else {
                gl::FRAMEBUFFER_COMPLETE
            });
        }
        let name = self.named_framebuffer(framebuffer)?;
        Ok(self
            .framebuffers
            .get(name)
            .map_or(gl::FRAMEBUFFER_UNDEFINED, |fb| self.framebuffer_status(fb)))
    }

    pub(crate) fn try_draw_buffers(&mut self, bufs: &[u32]) -> GlResult<()> {
        self.draw_buffers_of(self.draw_framebuffer, bufs)
    }

    /// glDrawBuffer: one buffer, as glDrawBuffers of one (GL 4.5 core §17.4.1).
    pub(crate) fn try_draw_buffer(&mut self, buf: u32) -> GlResult<()> {
        self.draw_buffers_of(self.draw_framebuffer, &[buf])
    }

    pub(crate) fn try_named_framebuffer_draw_buffer(
        &mut self,
        framebuffer: u32,
        buf: u32,
    ) -> GlResult<()> {
        let fb = self.dsa_framebuffer_or_default(framebuffer)?;
        self.draw_buffers_of(fb, &[buf])
    }

    pub(crate) fn try_named_framebuffer_draw_buffers(
        &mut self,
        framebuffer: u32,
        bufs: &[u32],
    ) -> GlResult<()> {
        let fb = self.dsa_framebuffer_or_default(framebuffer)?;
        self.draw_buffers_of(fb, bufs)
    }

    pub(crate) fn try_named_framebuffer_read_buffer(
        &mut self,
        framebuffer: u32,
        src: u32,
    ) -> GlResult<()> {
        let fb = self.dsa_framebuffer_or_default(framebuffer)?;
        self.read_buffer_of(fb, src)
    }

    /// A DSA command's framebuffer where 0 names the default framebuffer (None).
    pub(crate) fn dsa_framebuffer_or_default(
        &self,
        framebuffer: u32,
    ) -> GlResult<Option<FramebufferName>> {
        match framebuffer {
            0 => Ok(None),
            f => self.named_framebuffer(f).map(Some),
        }
    }

    /// glDrawBuffers's rules (GL 4.5 core §17.4.1) for framebuffer `fb` (None: default).
    fn draw_buffers_of(&mut self, fb: Option<FramebufferName>, bufs: &[u32]) -> GlResult<()> {
        if bufs.len() > limits::MAX_DRAW_BUFFERS as usize {
            return Err(GlError::InvalidValue("more than GL_MAX_DRAW_BUFFERS"));
        }
        match fb {
            None => {
                if bufs.len() != 1 {
                    return Err(GlError::InvalidOperation(
                        "the default framebuffer takes one buffer",
                    ));
                }
                let b = bufs[0];
                if !matches!(
                    b,
                    gl::NONE
                        | gl::BACK
                        | gl::BACK_LEFT
                        | gl::FRONT
                        | gl::FRONT_LEFT
                        | gl::FRONT_AND_BACK
                        | gl::LEFT
                ) {
                    return Err(
                        if (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + 32).contains(&b) {
                            GlError::InvalidOperation(
                                "colour attachments need a framebuffer object",
                            )
                        } else {
                            GlError::InvalidEnum("draw buffer")
                        },
                    );
                }
                self.default_fb.draw_buffer = b;
            }
            Some(name) => {
                for (i, &b) in bufs.iter().enumerate() {
                    if b == gl::NONE {
                        continue;
                    }
                    let k = b.wrapping_sub(gl::COLOR_ATTACHMENT0);
                    if k >= 32 {
                        return Err(
                            if matches!(
                                b,
                                gl::BACK
                                    | gl::FRONT
                                    | gl::BACK_LEFT
                                    | gl::FRONT_LEFT
                                    | gl::FRONT_AND_BACK
                                    | gl::LEFT
                            ) {
                                GlError::InvalidOperation(
                                    "default-framebuffer buffer on a framebuffer object",
                                )
                            } else {
                                GlError::InvalidEnum("draw buffer")
                            },
                        );
                    }
                    if k >= limits::MAX_COLOR_ATTACHMENTS {
                        return Err(GlError::InvalidOperation("past GL_MAX_COLOR_ATTACHMENTS"));
                    }
                    if bufs[..i].contains(&b) {
                        return Err(GlError::InvalidOperation("buffer listed twice"));
                    }
                }
                let fb = self
                    .framebuffers
                    .get_mut(name)
                    .ok_or(GlError::InvalidOperation("no framebuffer"))?;
                fb.draw_buffers = bufs.to_vec();
            }
        }
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    pub(crate) fn try_read_buffer(&mut self, src: u32) -> GlResult<()> {
        self.read_buffer_of(self.read_framebuffer, src)
    }

    /// glReadBuffer's rules (GL 4.5 core §18.2.1) for framebuffer `fb` (None: default).
    fn read_buffer_of(&mut self, fb: Option<FramebufferName>, src: u32) -> GlResult<()> {
        match fb {
            None => {
                if !matches!(
                    src,
                    gl::NONE | gl::BACK | gl::BACK_LEFT | gl::FRONT | gl::FRONT_LEFT | gl::LEFT
                ) {
                    return Err(GlError::InvalidOperation(
                        "not a default-framebuffer buffer",
                    ));
                }
                self.default_fb.read_buffer = src;
            }
            Some(name) => {
                let k = src.wrapping_sub(gl::COLOR_ATTACHMENT0);
                if src != gl::NONE && k >= limits::MAX_COLOR_ATTACHMENTS {
                    return Err(GlError::InvalidOperation("not a colour attachment"));
                }
                let fb = self
                    .framebuffers
                    .get_mut(name)
                    .ok_or(GlError::InvalidOperation("no framebuffer"))?;
                fb.read_buffer = src;
            }
        }
        Ok(())
    }

    /// Detaches a deleted texture from the bound framebuffers (GL 4.5 core §9.2.8).
    pub(crate) fn detach_texture(&mut self, name: TextureName) {
        self.detach_where(|a| matches!(a, Attachment::Texture { name: n, .. } if n == name));
    }

    fn detach_where(&mut self, pred: impl Fn(Attachment) -> bool) {
        for fbn in [self.draw_framebuffer, self.read_framebuffer]
            .into_iter()
            .flatten()
        {
            if let Some(fb) = self.framebuffers.get_mut(fbn) {
                for slot in fb.colors.iter_mut().chain([&mut fb.depth, &mut fb.stencil]) {
                    if slot.is_some_and(&pred) {
                        *slot = None;
                    }
                }
            }
        }
        self.dirty |= dirty::TARGET;
    }

    // ---- renderbuffers ----

    pub(crate) fn try_gen_renderbuffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.objs.renderbuffers.gen_many(n))
    }

    pub(crate) fn try_create_renderbuffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.objs
                .renderbuffers
                .create_many(n, Renderbuffer::default)
        })
    }

    /// glIsRenderbuffer.
    pub fn is_renderbuffer(&self, renderbuffer: u32) -> bool {
        self.read_group(|o| {
            o.renderbuffers
                .get(RenderbufferName(renderbuffer))
                .is_some()
        })
    }

    pub(crate) fn try_bind_renderbuffer(&mut self, target: u32, renderbuffer: u32) -> GlResult<()> {
        if target != gl::RENDERBUFFER {
            return Err(GlError::InvalidEnum("renderbuffer target"));
        }
        if renderbuffer == 0 {
            self.renderbuffer = None;
            return Ok(());
        }
        let n = RenderbufferName(renderbuffer);
        if !self.objs.renderbuffers.ensure(n, Renderbuffer::default) {
            return Err(GlError::InvalidOperation("not a renderbuffer name"));
        }
        self.renderbuffer = Some(n);
        Ok(())
    }

    pub(crate) fn try_renderbuffer_storage(
        &mut self,
        target: u32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        self.try_renderbuffer_storage_multisample(target, 0, internalformat, width, height)
    }

    pub(crate) fn try_renderbuffer_storage_multisample(
        &mut self,
        target: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        if target != gl::RENDERBUFFER {
            return Err(GlError::InvalidEnum("renderbuffer target"));
        }
        self.renderbuffer_storage_of(None, samples, internalformat, width, height)
    }

    pub(crate) fn try_named_renderbuffer_storage(
        &mut self,
        renderbuffer: u32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        self.try_named_renderbuffer_storage_multisample(
            renderbuffer,
            0,
            internalformat,
            width,
            height,
        )
    }

    pub(crate) fn try_named_renderbuffer_storage_multisample(
        &mut self,
        renderbuffer: u32,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let name = RenderbufferName(renderbuffer);
        if self.objs.renderbuffers.get(name).is_none() {
            return Err(GlError::InvalidOperation("not a renderbuffer object"));
        }
        self.renderbuffer_storage_of(Some(name), samples, internalformat, width, height)
    }

    /// Storage for renderbuffer `name` (`None`: the bound one, GL_INVALID_OPERATION when
    /// there is none) of `samples` samples, rounded up to a supported count (GL 4.5 core
    /// §9.2.4); a multisample renderbuffer is one image per sample (`raster::multisample`).
    fn renderbuffer_storage_of(
        &mut self,
        name: Option<RenderbufferName>,
        samples: i32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let samples = u32::try_from(samples)
            .ok()
            .and_then(multisample::supported_count)
            .ok_or(GlError::InvalidValue(
                "samples negative or past GL_MAX_SAMPLES",
            ))?;
        let m = limits::MAX_RENDERBUFFER_SIZE;
        if width < 0 || height < 0 || width > m || height > m {
            return Err(GlError::InvalidValue("size out of range"));
        }
        // GL_STENCIL_INDEX8 is stored as D24S8 whose depth bits are never used (§9.2.4 lets
        // storage exceed the request; the reported sizes are depth 0, stencil 8).
        let fmt = match internalformat {
            gl::STENCIL_INDEX8 => Some(pixels::InternalFormat {
                gl: gl::STENCIL_INDEX8,
                storage: Format::Depth24Stencil8,
                channels: 1,
                bits: [0; 4],
                sized: true,
            }),
            f => pixels::internal_format(f),
        }
        .ok_or(GlError::BadEnum("renderbuffer format", internalformat))?;
        // GL 4.5 core §9.2.4: colour-, depth- or stencil-renderable formats only (the snorm
        // formats are none of them, table 8.12).
        if !fmt.storage.is_depth() && !color_renderable(fmt.storage) {
            return Err(GlError::BadEnum(
                "renderbuffer format is not colour-renderable",
                internalformat,
            ));
        }
        let name = match name {
            Some(n) => n,
            None => self
                .renderbuffer
                .ok_or(GlError::InvalidOperation("no renderbuffer bound"))?,
        };
        let new = || pixels::new_image(width as u32, height as u32, fmt.storage).map(Arc::new);
        let image = new()?;
        let planes = (1..samples).map(|_| new()).collect::<GlResult<Vec<_>>>()?;
        let rb = self
            .objs
            .renderbuffers
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("no renderbuffer"))?;
        rb.image = Some(image);
        rb.format = Some(fmt);
        rb.samples = samples;
        rb.planes = planes;
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    pub(crate) fn try_get_renderbuffer_parameteriv(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<i32> {
        if target != gl::RENDERBUFFER {
            return Err(GlError::InvalidEnum("renderbuffer target"));
        }
        let name = self
            .renderbuffer
            .ok_or(GlError::InvalidOperation("no renderbuffer bound"))?;
        self.renderbuffer_parameter_of(name, pname)
    }

    /// glGet(Named)RenderbufferParameteriv of the renderbuffer `name`.
    pub(crate) fn renderbuffer_parameter_of(
        &self,
        name: RenderbufferName,
        pname: u32,
    ) -> GlResult<i32> {
        let rb = self
            .objs
            .renderbuffers
            .get(name)
            .ok_or(GlError::InvalidOperation(
                "not the name of a renderbuffer object",
            ))?;
        let size = |i: usize| rb.format.map_or(0, |f| f.component_sizes()[i]);
        Ok(match pname {
            gl::RENDERBUFFER_WIDTH => rb.image.as_ref().map_or(0, |i| i.width() as i32),
            gl::RENDERBUFFER_HEIGHT => rb.image.as_ref().map_or(0, |i| i.height() as i32),
            // The initial internal format is RGBA (§9.2.6's state table).
            gl::RENDERBUFFER_INTERNAL_FORMAT => rb.format.map_or(gl::RGBA, |f| f.gl) as i32,
            gl::RENDERBUFFER_RED_SIZE => size(0),
            gl::RENDERBUFFER_GREEN_SIZE => size(1),
            gl::RENDERBUFFER_BLUE_SIZE => size(2),
            gl::RENDERBUFFER_ALPHA_SIZE => size(3),
            gl::RENDERBUFFER_DEPTH_SIZE => size(4),
            gl::RENDERBUFFER_STENCIL_SIZE => size(5),
            gl::RENDERBUFFER_SAMPLES => rb.samples as i32,
            _ => return Err(GlError::BadEnum("renderbuffer parameter", pname)),
        })
    }

    pub(crate) fn try_delete_renderbuffers(&mut self, renderbuffers: &[u32]) -> GlResult<()> {
        for &r in renderbuffers {
            let n = RenderbufferName(r);
            if !self.objs.renderbuffers.is_name(n) {
                continue;
            }
            if self.renderbuffer == Some(n) {
                self.renderbuffer = None;
            }
            self.detach_where(|a| a == Attachment::Renderbuffer(n));
            self.objs.renderbuffers.remove(n);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    #[test]
    fn renderbuffer_queries_and_multisample_storage() {
        let mut c = Context::with_threads(8, 8, 1);
        c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_WIDTH);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "nothing bound");
        let r = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, r);
        let q = |c: &mut Context, p| c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, p);
        assert_eq!(q(&mut c, gl::RENDERBUFFER_INTERNAL_FORMAT), gl::RGBA as i32);
        assert_eq!(q(&mut c, gl::RENDERBUFFER_WIDTH), 0);
        c.renderbuffer_storage_multisample(gl::RENDERBUFFER, 0, gl::RGBA4, 5, 3);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            [
                gl::RENDERBUFFER_WIDTH,
                gl::RENDERBUFFER_HEIGHT,
                gl::RENDERBUFFER_INTERNAL_FORMAT,
                gl::RENDERBUFFER_RED_SIZE,
                gl::RENDERBUFFER_ALPHA_SIZE,
                gl::RENDERBUFFER_DEPTH_SIZE,
                gl::RENDERBUFFER_SAMPLES,
            ]
            .map(|p| q(&mut c, p)),
            [5, 3, gl::RGBA4 as i32, 4, 4, 0, 0]
        );
        // Sample counts past GL_MAX_SAMPLES (8), or negative, are refused and the old
        // storage stays; others round up to 2, 4 or 8.
        c.renderbuffer_storage_multisample(gl::RENDERBUFFER, 9, gl::RGBA8, 2, 2);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        assert_eq!(q(&mut c, gl::RENDERBUFFER_WIDTH), 5);
        c.renderbuffer_storage_multisample(gl::RENDERBUFFER, -1, gl::RGBA8, 2, 2);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        for (asked, got) in [(1, 2), (3, 4), (4, 4), (5, 8), (8, 8), (0, 0)] {
            c.renderbuffer_storage_multisample(gl::RENDERBUFFER, asked, gl::RGBA8, 5, 3);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            assert_eq!(q(&mut c, gl::RENDERBUFFER_SAMPLES), got, "asked {asked}");
        }
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 2, 2);
        assert_eq!(
            [
                gl::RENDERBUFFER_DEPTH_SIZE,
                gl::RENDERBUFFER_STENCIL_SIZE,
                gl::RENDERBUFFER_RED_SIZE
            ]
            .map(|p| q(&mut c, p)),
            [24, 8, 0]
        );
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH_COMPONENT16, 2, 2);
        assert_eq!(
            q(&mut c, gl::RENDERBUFFER_STENCIL_SIZE),
            0,
            "no stencil asked for"
        );
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGB10_A2, 2, 2);
        assert_eq!(
            [gl::RENDERBUFFER_RED_SIZE, gl::RENDERBUFFER_ALPHA_SIZE].map(|p| q(&mut c, p)),
            [10, 2]
        );
        q(&mut c, gl::TEXTURE_WIDTH);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.get_renderbuffer_parameteriv(gl::TEXTURE_2D, gl::RENDERBUFFER_WIDTH);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
    }

    #[test]
    fn attachment_queries() {
        let mut c = Context::with_threads(8, 8, 1);
        let q =
            |c: &mut Context, a, p| c.get_framebuffer_attachment_parameteriv(gl::FRAMEBUFFER, a, p);
        // The default framebuffer of a pbuffer: a back buffer and depth/stencil.
        assert_eq!(
            q(
                &mut c,
                gl::BACK_LEFT,
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
            ),
            gl::FRAMEBUFFER_DEFAULT as i32
        );
        assert_eq!(
            q(&mut c, gl::BACK_LEFT, gl::FRAMEBUFFER_ATTACHMENT_RED_SIZE),
            8
        );
        assert_eq!(
            q(&mut c, gl::DEPTH, gl::FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE),
            24
        );
        assert_eq!(
            q(&mut c, gl::STENCIL, gl::FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE),
            8
        );
        assert_eq!(
            q(
                &mut c,
                gl::FRONT_LEFT,
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
            ),
            gl::NONE as i32
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        q(
            &mut c,
            gl::COLOR_ATTACHMENT0,
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        );
        assert_eq!(
            c.get_error(),
            gl::INVALID_ENUM,
            "not a default-framebuffer buffer"
        );

        let f = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, f);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            1,
            gl::SRGB8_ALPHA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT1, gl::TEXTURE_2D, t, 1);
        let r = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, r);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::DEPTH_STENCIL_ATTACHMENT,
            gl::RENDERBUFFER,
            r,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let c1 = gl::COLOR_ATTACHMENT1;
        assert_eq!(
            [
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
                gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER,
                gl::FRAMEBUFFER_ATTACHMENT_BLUE_SIZE,
                gl::FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE,
                gl::FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING,
                gl::FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
            ]
            .map(|p| q(&mut c, c1, p)),
            [
                gl::TEXTURE as i32,
                t as i32,
                1,
                0,
                8,
                0,
                gl::SRGB as i32,
                gl::UNSIGNED_NORMALIZED as i32
            ]
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let ds = gl::DEPTH_STENCIL_ATTACHMENT;
        assert_eq!(
            q(&mut c, ds, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
            gl::RENDERBUFFER as i32
        );
        assert_eq!(
            q(&mut c, ds, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME),
            r as i32
        );
        assert_eq!(
            q(
                &mut c,
                gl::STENCIL_ATTACHMENT,
                gl::FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE
            ),
            8
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        q(&mut c, ds, gl::FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE);
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "depth and stencil differ"
        );
        q(&mut c, ds, gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
        assert_eq!(c.get_error(), gl::INVALID_ENUM, "not a texture");
        // An empty attachment point answers its type and name only.
        let c0 = gl::COLOR_ATTACHMENT0;
        assert_eq!(
            q(&mut c, c0, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
            gl::NONE as i32
        );
        assert_eq!(q(&mut c, c0, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), 0);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        q(&mut c, c0, gl::FRAMEBUFFER_ATTACHMENT_RED_SIZE);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        q(
            &mut c,
            gl::COLOR_ATTACHMENT0 + 8,
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        );
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "past GL_MAX_COLOR_ATTACHMENTS"
        );
        c.get_framebuffer_attachment_parameteriv(
            0x1234,
            c0,
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        );
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        // Different images at depth and stencil make DEPTH_STENCIL_ATTACHMENT ambiguous.
        c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::STENCIL_ATTACHMENT, gl::RENDERBUFFER, 0);
        q(&mut c, ds, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    }

    #[test]
    fn texture_1d_3d_and_layer_attachments() {
        let mut c = Context::with_threads(8, 8, 1);
        let f = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, f);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        let c0 = gl::COLOR_ATTACHMENT0;
        // A 2D texture never matches TEXTURE_1D / TEXTURE_3D or a layered target.
        c.framebuffer_texture_1d(gl::FRAMEBUFFER, c0, gl::TEXTURE_1D, t, 0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.framebuffer_texture_3d(gl::FRAMEBUFFER, c0, gl::TEXTURE_2D, t, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, c0, t, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, c0, t, 0, -1);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, c0, 77, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a texture");
        // Zero detaches, whatever the command.
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, c0, gl::TEXTURE_2D, t, 0);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, c0, 0, 0, 0);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, c0, gl::TEXTURE_2D, t, 0);
        c.framebuffer_texture_3d(gl::FRAMEBUFFER, c0, gl::TEXTURE_3D, 0, 0, 0);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        // The default framebuffer has no attachment points.
        c.bind_framebuffer(gl::FRAMEBUFFER, 0);
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, c0, 0, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    }

    #[test]
    fn read_pixels_of_stencil_and_depth_stencil() {
        let mut c = Context::with_threads(4, 4, 1);
        c.clear_depth(0.5);
        c.clear_stencil(0x1_07); // masked to the buffer's 8 bits
        c.clear(gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
        let px = c.read_pixels(1, 1, 2, 1, gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let d24 = (0.5f64 * 16_777_215.0).round() as u32;
        let word = (d24 << 8) | 7;
        assert_eq!(px, [word.to_le_bytes(), word.to_le_bytes()].concat());
        assert_eq!(
            c.read_pixels(0, 0, 3, 1, gl::STENCIL_INDEX, gl::UNSIGNED_BYTE),
            vec![7, 7, 7, 0]
        );
        assert_eq!(
            c.read_pixels(3, 3, 1, 1, gl::STENCIL_INDEX, gl::FLOAT),
            7.0f32.to_le_bytes().to_vec()
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.read_pixels(0, 0, 1, 1, gl::DEPTH_STENCIL, gl::FLOAT);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_INT_24_8);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        // An FBO with depth but no stencil attachment has no stencil to read.
        let f = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, f);
        let r = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, r);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH_COMPONENT32F, 4, 4);
        c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, r);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );
        c.read_pixels(0, 0, 1, 1, gl::STENCIL_INDEX, gl::UNSIGNED_BYTE);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.read_pixels(0, 0, 1, 1, gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT);
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }

    #[test]
    fn completeness_rules() {
        let mut c = Context::with_threads(8, 8, 1);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );
        let f = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, f);
        assert_eq!(
            c.check_framebuffer_status(gl::DRAW_FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        c.check_framebuffer_status(0x1234);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);

        let t = c.gen_textures(2);
        c.bind_texture(gl::TEXTURE_2D, t[0]);
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            t[0],
            0,
        );
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            "no image"
        );
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            8,
            8,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );

        let rb = c.gen_renderbuffers(2);
        c.bind_renderbuffer(gl::RENDERBUFFER, rb[0]);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 8, 8);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::DEPTH_ATTACHMENT,
            gl::RENDERBUFFER,
            rb[0],
        );
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            "colour as depth"
        );
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 8, 8);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );
        c.bind_renderbuffer(gl::RENDERBUFFER, rb[1]);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH_COMPONENT32F, 8, 8);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::STENCIL_ATTACHMENT,
            gl::RENDERBUFFER,
            rb[1],
        );
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            "no stencil bits"
        );
        c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::STENCIL_ATTACHMENT, gl::RENDERBUFFER, 0);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::DEPTH_ATTACHMENT,
            gl::RENDERBUFFER,
            rb[1],
        );
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE,
            "D32F depth"
        );

        // Errors.
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0 + 8,
            gl::TEXTURE_2D,
            t[0],
            0,
        );
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            999,
            0,
        );
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            t[0],
            -1,
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.draw_buffers(&[gl::BACK]);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0]);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);

        // Deleting the texture detaches it.
        c.delete_textures(&[t[0]]);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE,
            "depth only"
        );
        c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, 0);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
        assert!(px.is_empty());
        assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
        c.bind_framebuffer(gl::FRAMEBUFFER, 0);
        c.draw_buffers(&[gl::COLOR_ATTACHMENT0]);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    }

    #[test]
    fn read_pixels_default_framebuffer_and_pack_alignment() {
        let mut c = Context::with_threads(3, 2, 1);
        let px = c.read_pixels(0, 0, 3, 2, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(px, vec![0; 24]);
        c.pixel_storei(gl::PACK_ALIGNMENT, 8);
        let px = c.read_pixels(0, 0, 3, 2, gl::RED, gl::UNSIGNED_BYTE);
        assert_eq!(px.len(), 16, "rows padded to 8 bytes");
        let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::FLOAT);
        assert_eq!(px.len(), 16);
        // GL_SHORT is converted (signed normalized, GL 4.5 §8.4.4.2's inverse): zeros here.
        let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::SHORT);
        assert_eq!((px, c.get_error()), (vec![0; 8], gl::NO_ERROR));
        // A packed type whose component count is not the format's: GL_INVALID_OPERATION;
        // an enum that is no pixel type is GL_INVALID_ENUM.
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_SHORT_5_6_5);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::RGBA);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.read_pixels(0, 0, -1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.pixel_storei(gl::PACK_ALIGNMENT, 3);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
    }
}
