//! Buffer textures (GL 4.5 core §8.9): glTexBuffer / glTexBufferRange and their DSA forms,
//! the formats of table 8.16, and how a buffer texture's one level follows its buffer.
//!
//! The level is a copy of the buffer range in a sampler format, made when a draw (or a
//! bindless handle) captures the texture and the buffer's store changed since the last
//! copy. The texture keeps a clone of the store it copied (`TexBufferRange::seen`): while
//! that clone lives, any write to the buffer copies the store first (buffers are
//! `Arc::make_mut` copy-on-write), so a store pointer that differs from `seen` means the
//! contents changed. Known gap: writes through a persistent mapping change the store in
//! place and are seen only after the next non-mapped write or re-specification.

use std::sync::Arc;

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::BufferName;
use crate::api::texture::TexRef;
use crate::gl::enums as gl;
use crate::sampler::{Format, Image, IntFormat};

/// A buffer texture's attachment (glTexBuffer / glTexBufferRange).
#[derive(Debug, Clone)]
pub(crate) struct TexBufferRange {
    pub name: BufferName,
    /// The internal format (table 8.16).
    pub internal_format: u32,
    pub offset: usize,
    /// The range's size; `None` for glTexBuffer: the whole buffer, whatever its size.
    pub size: Option<usize>,
    /// The store level 0 was copied from (see the module docs).
    pub seen: Option<Arc<Vec<u8>>>,
}

/// How a table 8.16 format's texels become sampler texels: the sampler format they are
/// stored in and the components each buffer texel has.
#[derive(Copy, Clone, Debug)]
enum Layout {
    /// Bytes copied as they are.
    Same(Format),
    /// f16 components, widened to RGBA16F (missing G, B as 0 and A as 1).
    Half(usize),
    /// f32 components, widened to RGBA32F.
    Float(usize),
    /// unorm16 components, as RGBA32F (v / 65535, one IEEE division).
    Unorm16(usize),
}

/// The layout of a table 8.16 internal format, `None` for other formats.
fn layout(internal_format: u32) -> Option<Layout> {
    Some(match internal_format {
        gl::R8 => Layout::Same(Format::R8),
        gl::RG8 => Layout::Same(Format::Rg8),
        gl::RGBA8 => Layout::Same(Format::Rgba8),
        gl::R32F => Layout::Same(Format::R32F),
        gl::RGBA32F => Layout::Same(Format::Rgba32F),
        gl::RGBA16F => Layout::Same(Format::Rgba16F),
        gl::R16F => Layout::Half(1),
        gl::RG16F => Layout::Half(2),
        gl::RG32F => Layout::Float(2),
        gl::RGB32F => Layout::Float(3),
        gl::R16 => Layout::Unorm16(1),
        gl::RG16 => Layout::Unorm16(2),
        gl::RGBA16 => Layout::Unorm16(4),
        e => {
            let f = IntFormat::from_gl(e)?;
            // Table 8.16 has the 3-component integer formats in 32 bits only.
            if f.channels == 3 && f.bytes != 4 {
                return None;
            }
            Layout::Same(Format::Int(f))
        }
    })
}

/// Bytes of one buffer texel of `l`.
fn texel_bytes(l: Layout) -> usize {
    match l {
        Layout::Same(f) => f.bytes_per_texel(),
        Layout::Half(n) | Layout::Unorm16(n) => 2 * n,
        Layout::Float(n) => 4 * n,
    }
}

/// The level image of `bytes` (the buffer range) in layout `l`: ⌊len / texel size⌋ texels,
/// at most MAX_TEXTURE_BUFFER_SIZE (GL 4.5 core §8.9). `None` when that is 0 texels.
fn level_image(l: Layout, bytes: &[u8]) -> Option<Image> {
    let tb = texel_bytes(l);
    let n = (bytes.len() / tb).min(limits::MAX_TEXTURE_BUFFER_SIZE as usize);
    if n == 0 {
        return None;
    }
    let src = &bytes[..n * tb];
    let (format, data) = match l {
        Layout::Same(f) => (f, src.to_vec()),
        Layout::Half(c) => {
            let one = half::f16::ONE.to_bits().to_le_bytes();
            let mut out = Vec::with_capacity(n * 8);
            for t in src.chunks_exact(tb) {
                for k in 0..4 {
                    match k {
                        _ if k < c => out.extend_from_slice(&t[2 * k..2 * k + 2]),
                        3 => out.extend_from_slice(&one),
                        _ => out.extend_from_slice(&[0, 0]),
                    }
                }
            }
            (Format::Rgba16F, out)
        }
        Layout::Float(c) | Layout::Unorm16(c) => {
            let mut out = Vec::with_capacity(n * 16);
            for t in src.chunks_exact(tb) {
                for k in 0..4 {
                    let v = if k < c {
                        match l {
                            Layout::Float(_) => f32::from_le_bytes([
                                t[4 * k],
                                t[4 * k + 1],
                                t[4 * k + 2],
                                t[4 * k + 3],
                            ]),
                            _ => u16::from_le_bytes([t[2 * k], t[2 * k + 1]]) as f32 / 65535.0,
                        }
                    } else if k == 3 {
                        1.0
                    } else {
                        0.0
                    };
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            (Format::Rgba32F, out)
        }
    };
    let mut img = Image::new(n as u32, 1, format);
    img.write_bytes(0, &data);
    Some(img)
}

gl_commands! {
    /// glTexBuffer (GL 4.5 core §8.9): the whole of `buffer` (0 detaches) as the texels of
    /// the buffer texture bound to GL_TEXTURE_BUFFER.
    "glTexBuffer"
    fn tex_buffer(target: u32, internalformat: u32, buffer: u32) = try_tex_buffer;
    /// glTexBufferRange: `size` bytes of `buffer` from `offset` (a multiple of
    /// TEXTURE_BUFFER_OFFSET_ALIGNMENT).
    "glTexBufferRange"
    fn tex_buffer_range(target: u32, internalformat: u32, buffer: u32, offset: isize, size: isize)
        = try_tex_buffer_range;
    /// glTextureBuffer (DSA).
    "glTextureBuffer"
    fn texture_buffer(texture: u32, internalformat: u32, buffer: u32) = try_texture_buffer;
    /// glTextureBufferRange (DSA).
    "glTextureBufferRange"
    fn texture_buffer_range(texture: u32, internalformat: u32, buffer: u32, offset: isize, size: isize)
        = try_texture_buffer_range;
}

impl Context {
    fn buffer_texture_target(&self, target: u32) -> GlResult<TexRef> {
        self.bound_texture_of(
            target,
            &[gl::TEXTURE_BUFFER],
            "texture target (GL_TEXTURE_BUFFER)",
        )
    }

    pub(crate) fn try_tex_buffer(&mut self, target: u32, ifmt: u32, buffer: u32) -> GlResult<()> {
        let r = self.buffer_texture_target(target)?;
        self.attach_buffer(r, ifmt, buffer, None)
    }

    pub(crate) fn try_tex_buffer_range(
        &mut self,
        target: u32,
        ifmt: u32,
        buffer: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<()> {
        let r = self.buffer_texture_target(target)?;
        self.attach_buffer(r, ifmt, buffer, Some((offset, size)))
    }

    pub(crate) fn try_texture_buffer(
        &mut self,
        texture: u32,
        ifmt: u32,
        buffer: u32,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(texture, &[gl::TEXTURE_BUFFER])?;
        self.attach_buffer(r, ifmt, buffer, None)
    }

    pub(crate) fn try_texture_buffer_range(
        &mut self,
        texture: u32,
        ifmt: u32,
        buffer: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(texture, &[gl::TEXTURE_BUFFER])?;
        self.attach_buffer(r, ifmt, buffer, Some((offset, size)))
    }

    /// The checks of glTexBuffer(Range) (GL 4.5 core §8.9), then the attachment; the level
    /// is made at the next capture (`refresh_buffer_texture`).
    fn attach_buffer(
        &mut self,
        r: TexRef,
        ifmt: u32,
        buffer: u32,
        range: Option<(isize, isize)>,
    ) -> GlResult<()> {
        if layout(ifmt).is_none() {
            return Err(GlError::BadEnum(
                "buffer texture internal format (table 8.16)",
                ifmt,
            ));
        }
        let binding = if buffer == 0 {
            None
        } else {
            let name = BufferName(buffer);
            let len = self
                .objs
                .buffers
                .get(name)
                .map(|b| b.data.len())
                .ok_or(GlError::InvalidOperation("not the name of a buffer object"))?;
            let (offset, size) = match range {
                None => (0, None),
                Some((o, s)) => {
                    if o < 0
                        || s <= 0
                        || (o as usize).checked_add(s as usize).is_none_or(|e| e > len)
                    {
                        return Err(GlError::InvalidValue(
                            "offset or size negative, zero or past the buffer's end",
                        ));
                    }
                    if !(o as usize)
                        .is_multiple_of(limits::TEXTURE_BUFFER_OFFSET_ALIGNMENT as usize)
                    {
                        return Err(GlError::InvalidValue(
                            "offset not a multiple of TEXTURE_BUFFER_OFFSET_ALIGNMENT",
                        ));
                    }
                    (o as usize, Some(s as usize))
                }
            };
            Some(crate::api::texture::TexBufferRange {
                name,
                internal_format: ifmt,
                offset,
                size,
                seen: None,
            })
        };
        let t = self.texture_for_state_change_of(r)?;
        t.buffer = binding;
        t.buffer_format = ifmt;
        t.levels[0] = None;
        self.texture_changed(r);
        Ok(())
    }

    /// Brings a buffer texture's level up to its buffer's contents (see the module docs):
    /// a draw or a bindless handle calls this before it captures the texture.
    pub(crate) fn refresh_buffer_texture(&mut self, r: TexRef) {
        let Some(b) = self.texture(r).and_then(|t| t.buffer.clone()) else {
            return;
        };
        let store = self.objs.buffers.get(b.name).map(|buf| buf.data.clone());
        let same = match (&store, &b.seen) {
            (Some(a), Some(s)) => Arc::ptr_eq(a, s),
            (None, None) => true,
            _ => false,
        };
        if same {
            return;
        }
        let img = store.as_ref().and_then(|s| {
            let end = b.size.map_or(s.len(), |n| (b.offset + n).min(s.len()));
            let bytes = s.get(b.offset.min(end)..end).unwrap_or(&[]);
            layout(b.internal_format).and_then(|l| level_image(l, bytes))
        });
        if let Some(t) = self.texture_mut(r) {
            t.levels[0] = img.map(Arc::new);
            if let Some(tb) = t.buffer.as_mut() {
                tb.seen = store;
            }
        }
        // The texture's internal descriptors point at the old copy.
        self.texture_changed(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_of_table_8_16_widen_exactly() {
        // RG32F: (r, g, 0, 1).
        let mut b = Vec::new();
        for v in [1.5f32, -2.0, 3.25, 4.0] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let img = level_image(layout(gl::RG32F).unwrap(), &b).unwrap();
        assert_eq!((img.width(), img.format()), (2, Format::Rgba32F));
        let words: Vec<f32> = img
            .to_bytes()
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(words, [1.5, -2.0, 0.0, 1.0, 3.25, 4.0, 0.0, 1.0]);
        // R16 unorm: 65535 → 1.0, 0 → 0.0; a trailing partial texel is dropped.
        let img = level_image(layout(gl::R16).unwrap(), &[0xFF, 0xFF, 0, 0, 7]).unwrap();
        assert_eq!(img.width(), 2);
        let words: Vec<f32> = img
            .to_bytes()
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(words, [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        // RGB8I is not in the table; RGB32UI is, and copies as it is.
        assert!(layout(gl::RGB8I).is_none());
        assert!(matches!(
            layout(gl::RGB32UI),
            Some(Layout::Same(Format::Int(_)))
        ));
        assert!(level_image(layout(gl::RGBA8).unwrap(), &[1, 2, 3]).is_none());
    }
}
