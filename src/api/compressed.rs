//! Compressed texture images (GL 4.5 core §8.7): glCompressedTex(ture)(Sub)Image2D/3D,
//! glGet(n)CompressedTex(ture)(Sub)Image, the compressed internal formats' queries, and the
//! blocks a compressed level keeps so that it reads back exactly as it was uploaded. The
//! blocks are decoded at upload (`sampler::compressed`) into an uncompressed storage format:
//! sampling needs nothing new.

use std::sync::{Arc, Weak};

use crate::api::context::Context;
use crate::api::dispatch::Group;
use crate::api::error::{GlError, GlResult};
use crate::api::pixels::{InternalFormat, PixelStore};
use crate::api::texture::{cube_face_of, TexRef};
use crate::gl::enums as gl;
use crate::sampler::compressed::{Compressed, BLOCK};
use crate::sampler::{Image, TexKind};

/// The specific compressed internal format `internal` names (GL 4.5 core table 8.14, plus
/// EXT_texture_compression_s3tc and its sRGB forms).
pub(crate) fn specific(internal: u32) -> Option<Compressed> {
    use Compressed::*;
    Some(match internal {
        gl::COMPRESSED_RED_RGTC1 => Rgtc1 { signed: false },
        gl::COMPRESSED_SIGNED_RED_RGTC1 => Rgtc1 { signed: true },
        gl::COMPRESSED_RG_RGTC2 => Rgtc2 { signed: false },
        gl::COMPRESSED_SIGNED_RG_RGTC2 => Rgtc2 { signed: true },
        gl::COMPRESSED_RGB_S3TC_DXT1_EXT => Bc1 {
            alpha: false,
            srgb: false,
        },
        gl::COMPRESSED_RGBA_S3TC_DXT1_EXT => Bc1 {
            alpha: true,
            srgb: false,
        },
        gl::COMPRESSED_SRGB_S3TC_DXT1_EXT => Bc1 {
            alpha: false,
            srgb: true,
        },
        gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT => Bc1 {
            alpha: true,
            srgb: true,
        },
        gl::COMPRESSED_RGBA_S3TC_DXT3_EXT => Bc2 { srgb: false },
        gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT => Bc2 { srgb: true },
        gl::COMPRESSED_RGBA_S3TC_DXT5_EXT => Bc3 { srgb: false },
        gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT => Bc3 { srgb: true },
        gl::COMPRESSED_RGBA_BPTC_UNORM => Bc7 { srgb: false },
        gl::COMPRESSED_SRGB_ALPHA_BPTC_UNORM => Bc7 { srgb: true },
        gl::COMPRESSED_RGB_BPTC_SIGNED_FLOAT => Bc6h { signed: true },
        gl::COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => Bc6h { signed: false },
        gl::COMPRESSED_RGB8_ETC2 => Etc2 {
            punchthrough: false,
            srgb: false,
        },
        gl::COMPRESSED_SRGB8_ETC2 => Etc2 {
            punchthrough: false,
            srgb: true,
        },
        gl::COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 => Etc2 {
            punchthrough: true,
            srgb: false,
        },
        gl::COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 => Etc2 {
            punchthrough: true,
            srgb: true,
        },
        gl::COMPRESSED_RGBA8_ETC2_EAC => Etc2Eac { srgb: false },
        gl::COMPRESSED_SRGB8_ALPHA8_ETC2_EAC => Etc2Eac { srgb: true },
        gl::COMPRESSED_R11_EAC => Eac11 {
            channels: 1,
            signed: false,
        },
        gl::COMPRESSED_SIGNED_R11_EAC => Eac11 {
            channels: 1,
            signed: true,
        },
        gl::COMPRESSED_RG11_EAC => Eac11 {
            channels: 2,
            signed: false,
        },
        gl::COMPRESSED_SIGNED_RG11_EAC => Eac11 {
            channels: 2,
            signed: true,
        },
        _ => return None,
    })
}

/// Every specific compressed format softgl takes: GL_COMPRESSED_TEXTURE_FORMATS.
pub(crate) const FORMATS: [u32; 26] = [
    gl::COMPRESSED_RED_RGTC1,
    gl::COMPRESSED_SIGNED_RED_RGTC1,
    gl::COMPRESSED_RG_RGTC2,
    gl::COMPRESSED_SIGNED_RG_RGTC2,
    gl::COMPRESSED_RGB_S3TC_DXT1_EXT,
    gl::COMPRESSED_RGBA_S3TC_DXT1_EXT,
    gl::COMPRESSED_SRGB_S3TC_DXT1_EXT,
    gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT,
    gl::COMPRESSED_RGBA_S3TC_DXT3_EXT,
    gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT,
    gl::COMPRESSED_RGBA_S3TC_DXT5_EXT,
    gl::COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT,
    gl::COMPRESSED_RGBA_BPTC_UNORM,
    gl::COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
    gl::COMPRESSED_RGB_BPTC_SIGNED_FLOAT,
    gl::COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
    gl::COMPRESSED_RGB8_ETC2,
    gl::COMPRESSED_SRGB8_ETC2,
    gl::COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    gl::COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
    gl::COMPRESSED_RGBA8_ETC2_EAC,
    gl::COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
    gl::COMPRESSED_R11_EAC,
    gl::COMPRESSED_SIGNED_R11_EAC,
    gl::COMPRESSED_RG11_EAC,
    gl::COMPRESSED_SIGNED_RG11_EAC,
];

/// The internal format record of a specific compressed format: stored as
/// [`Compressed::storage`], with the channels GL gives the format (table 8.14's base
/// internal formats).
pub(crate) fn internal_format(internal: u32) -> Option<InternalFormat> {
    let c = specific(internal)?;
    let channels = match c {
        Compressed::Rgtc1 { .. } | Compressed::Eac11 { channels: 1, .. } => 1,
        Compressed::Rgtc2 { .. } | Compressed::Eac11 { .. } => 2,
        Compressed::Bc1 { alpha: false, .. }
        | Compressed::Bc6h { .. }
        | Compressed::Etc2 {
            punchthrough: false,
            ..
        } => 3,
        _ => 4,
    };
    Some(InternalFormat {
        gl: internal,
        storage: c.storage(),
        channels,
        bits: [0; 4],
        sized: true,
    })
}

/// Whether a format may be the internal format of a TEXTURE_3D level (GL 4.5 core §8.7:
/// the RGTC, ETC2/EAC and S3TC formats are 2D-only, stacked in arrays; BPTC may be 3D).
fn allows_3d(c: Compressed) -> bool {
    matches!(c, Compressed::Bc7 { .. } | Compressed::Bc6h { .. })
}

/// GL 4.5 core §8.7's target rule for a level of `internal` format on a texture of `kind`.
pub(crate) fn check_target(kind: TexKind, internal: u32) -> GlResult<()> {
    match specific(internal) {
        Some(c) if kind == TexKind::D3 && !allows_3d(c) => Err(GlError::InvalidOperation(
            "this compressed format cannot make a GL_TEXTURE_3D image (only BPTC can)",
        )),
        _ => Ok(()),
    }
}

/// Whether `o`..`o + s` of a level `l` texels wide is made of whole 4×4 blocks (partial
/// ones only at the level's edge).
fn whole_blocks(o: usize, s: usize, l: usize) -> bool {
    o.is_multiple_of(BLOCK) && (s.is_multiple_of(BLOCK) || o + s == l)
}

/// An uncompressed glTexSubImage* into a level of compressed format `internal` must cover
/// whole blocks too (GL 4.5 core §8.7, INVALID_OPERATION).
pub(crate) fn check_sub_region(internal: u32, [x, y, w, h]: [u32; 4], img: &Image) -> GlResult<()> {
    if specific(internal).is_none() {
        return Ok(());
    }
    let [x, y, w, h] = [x, y, w, h].map(|v| v as usize);
    if whole_blocks(x, w, img.width() as usize) && whole_blocks(y, h, img.height() as usize) {
        Ok(())
    } else {
        Err(GlError::InvalidOperation(
            "the region of a compressed level is not aligned to 4×4 blocks",
        ))
    }
}

/// The blocks the GL makes of uncompressed texels (`texels`: `w`×`h`×`d` of the format's
/// storage, tightly packed) uploaded into the specific compressed format `internal`, or None
/// when `internal` is not one or softgl has no encoder for it (BPTC, ETC2/EAC: such a
/// level keeps the texels as given and has no blocks to read back).
pub(crate) fn compress(
    internal: u32,
    [w, h, d]: [usize; 3],
    texels: &[u8],
) -> Option<(Compressed, Vec<u8>)> {
    let c = specific(internal)?;
    let layer = w * h * c.storage().bytes_per_texel();
    let mut blocks = Vec::new();
    for z in 0..d {
        blocks.extend(c.encode(w, h, texels.get(z * layer..(z + 1) * layer)?)?);
    }
    Some((c, blocks))
}

/// The blocks of one compressed level, as the application gave them (tightly packed, row of
/// blocks after row, layer or face after layer), for glGetCompressedTexImage. They belong to
/// `image`: once the level holds another image, or was written through an uncompressed
/// path (which clears them), there are none.
#[derive(Clone, Debug)]
pub(crate) struct KeptBlocks {
    image: Weak<Image>,
    blocks: Vec<u8>,
}

impl KeptBlocks {
    /// The blocks, when they still describe `img`.
    fn of(&self, img: &Arc<Image>) -> Option<&[u8]> {
        std::ptr::eq(self.image.as_ptr(), Arc::as_ptr(img)).then_some(&self.blocks[..])
    }
}

/// Where the compressed bytes of an upload come from.
#[derive(Copy, Clone, Debug)]
pub enum Source<'a> {
    /// Client memory: `imageSize` bytes.
    Client(&'a [u8]),
    /// The bound GL_PIXEL_UNPACK_BUFFER: `size` bytes at `offset` (§8.4.4).
    Buffer { offset: usize, size: usize },
}

/// Where a compressed download goes.
pub enum Dest<'o> {
    /// Client memory, `len` bytes given by the closure (the robust forms check bufSize).
    Client(Box<dyn FnOnce(usize) -> GlResult<&'o mut [u8]> + 'o>),
    /// The bound GL_PIXEL_PACK_BUFFER at this offset.
    Buffer(usize),
}

/// How blocks lie in client memory (GL 4.5 core §8.7's compressed pixel storage): with the
/// COMPRESSED_BLOCK_SIZE and _WIDTH parameters set, ROW_LENGTH and SKIP_PIXELS count; with
/// _HEIGHT too, SKIP_ROWS (and IMAGE_HEIGHT of 3D transfers, with _DEPTH SKIP_IMAGES).
/// Otherwise the blocks are tightly packed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Layout {
    block_bytes: usize,
    /// Blocks per row and block rows per image, in memory.
    row_blocks: usize,
    image_rows: usize,
    /// Blocks, block rows and images skipped before the first.
    skip: [usize; 3],
    /// Blocks of the transfer: per row, rows, images.
    size: [usize; 3],
    /// Whether any compressed storage parameter applies (imageSize may then exceed the
    /// blocks transferred).
    custom: bool,
}

impl Layout {
    fn new(c: Compressed, [w, h, d]: [usize; 3], s: &PixelStore, three_d: bool) -> Layout {
        let [bw, bh, bd, bsize] = s.compressed_block.map(|v| v as usize);
        let rows = bsize != 0 && bw != 0;
        let cols = bsize != 0 && bh != 0;
        let images = three_d && bsize != 0 && bd != 0;
        let size = [w.div_ceil(BLOCK), h.div_ceil(BLOCK), d];
        let row_blocks = if rows && s.row_length > 0 {
            (s.row_length as usize).div_ceil(BLOCK)
        } else {
            size[0]
        };
        let image_rows = if images && s.image_height > 0 {
            (s.image_height as usize).div_ceil(BLOCK)
        } else {
            size[1]
        };
        let skip = [
            if rows {
                s.skip_pixels as usize / BLOCK
            } else {
                0
            },
            if cols {
                s.skip_rows as usize / BLOCK
            } else {
                0
            },
            if images { s.skip_images as usize } else { 0 },
        ];
        Layout {
            block_bytes: c.block_bytes(),
            row_blocks,
            image_rows,
            skip,
            size,
            custom: rows || cols || images,
        }
    }

    /// Byte offset of block (`bx`, `by`) of image `z`; None on overflow.
    fn at(&self, bx: usize, by: usize, z: usize) -> Option<usize> {
        let img = (self.skip[2] + z).checked_mul(self.image_rows)?;
        let row = img
            .checked_add(self.skip[1] + by)?
            .checked_mul(self.row_blocks)?;
        row.checked_add(self.skip[0] + bx)?
            .checked_mul(self.block_bytes)
    }

    /// Bytes the transfer spans, through its last block.
    fn span(&self) -> Option<usize> {
        let [w, h, d] = self.size;
        if w == 0 || h == 0 || d == 0 {
            return Some(0);
        }
        self.at(w - 1, h - 1, d - 1)?.checked_add(self.block_bytes)
    }

    /// Bytes of the blocks themselves, tightly packed.
    fn tight(&self) -> Option<usize> {
        let [w, h, d] = self.size;
        w.checked_mul(h)?
            .checked_mul(d)?
            .checked_mul(self.block_bytes)
    }

    /// The transfer's blocks from `src` (client layout), tightly packed.
    fn gather(&self, src: &[u8]) -> Vec<u8> {
        let [w, h, d] = self.size;
        let row = w * self.block_bytes;
        let mut out = Vec::with_capacity(row * h * d);
        for z in 0..d {
            for by in 0..h {
                let at = self.at(0, by, z).unwrap_or(0);
                out.extend_from_slice(&src[at..at + row]);
            }
        }
        out
    }

    /// Writes tightly packed `blocks` into `dst` (client layout).
    fn scatter(&self, blocks: &[u8], dst: &mut [u8]) {
        let [w, h, d] = self.size;
        let row = w * self.block_bytes;
        for z in 0..d {
            for by in 0..h {
                let at = self.at(0, by, z).unwrap_or(0);
                let from = (z * h + by) * row;
                dst[at..at + row].copy_from_slice(&blocks[from..from + row]);
            }
        }
    }
}

/// Checks the compressed storage parameters against the format (GL 4.5 core §8.7: the skips
/// must be whole blocks, INVALID_OPERATION otherwise).
fn check_store(s: &PixelStore) -> GlResult<()> {
    let [bw, bh, _, size] = s.compressed_block;
    if size != 0
        && ((bw != 0 && !(s.skip_pixels as usize).is_multiple_of(BLOCK))
            || (bh != 0 && !(s.skip_rows as usize).is_multiple_of(BLOCK)))
    {
        return Err(GlError::InvalidOperation(
            "compressed transfer: skipped pixels or rows are not whole blocks",
        ));
    }
    Ok(())
}

/// Tightly packed blocks of a `w`×`h`×`d` region decoded into storage texels, layer after
/// layer; OUT_OF_MEMORY when the size cannot be had.
fn decode_layers(c: Compressed, [w, h, d]: [usize; 3], blocks: &[u8]) -> GlResult<Vec<u8>> {
    let per_layer = c
        .image_bytes(w, h)
        .ok_or(GlError::OutOfMemory("compressed image size overflows"))?;
    let mut out = Vec::new();
    for z in 0..d {
        let layer = c
            .decode(w, h, &blocks[z * per_layer..(z + 1) * per_layer])
            .ok_or(GlError::OutOfMemory("decoding a compressed image"))?;
        if out.is_empty() {
            out.try_reserve_exact(layer.len() * d)
                .map_err(|_| GlError::OutOfMemoryFor((layer.len() * d) as u64, "bytes"))?;
        }
        out.extend_from_slice(&layer);
    }
    Ok(out)
}

/// Copies the block region at block offset (`bx`, `by`, `z`) of size `size` (blocks per
/// row, block rows, layers) between a level's kept blocks (`level` blocks per row and rows
/// per layer) and tightly packed `region` blocks, in the direction `into_level` says.
fn copy_blocks(
    kept: &mut [u8],
    level: [usize; 2],
    region: &mut [u8],
    [bx, by, z]: [usize; 3],
    size: [usize; 3],
    block_bytes: usize,
    into_level: bool,
) {
    let row = size[0] * block_bytes;
    for l in 0..size[2] {
        for r in 0..size[1] {
            let at = (((z + l) * level[1] + by + r) * level[0] + bx) * block_bytes;
            let from = (l * size[1] + r) * row;
            if into_level {
                kept[at..at + row].copy_from_slice(&region[from..from + row]);
            } else {
                region[from..from + row].copy_from_slice(&kept[at..at + row]);
            }
        }
    }
}

impl Context {
    /// The bytes of an upload `src`, `len` of them expected when the layout is tight.
    fn compressed_source(&self, src: Source<'_>) -> GlResult<Arc<[u8]>> {
        Ok(match src {
            Source::Client(b) => Arc::from(b),
            Source::Buffer { offset, size } => {
                let data = self.pixel_buffer_range(gl::PIXEL_UNPACK_BUFFER, offset, size, 1)?;
                Arc::from(&data[offset..offset + size])
            }
        })
    }

    /// The blocks of an upload of `dims` texels from `src`, tightly packed, after GL 4.5
    /// core §8.7's checks: imageSize equal to the blocks' size (or, with compressed storage
    /// parameters, holding every block the layout reaches).
    fn upload_blocks(
        &self,
        c: Compressed,
        dims: [usize; 3],
        three_d: bool,
        src: Source<'_>,
    ) -> GlResult<Vec<u8>> {
        let store = self.unpack;
        check_store(&store)?;
        let layout = Layout::new(c, dims, &store, three_d);
        let tight = layout
            .tight()
            .ok_or(GlError::OutOfMemory("compressed image size overflows"))?;
        let span = layout
            .span()
            .ok_or(GlError::OutOfMemory("compressed image size overflows"))?;
        let size = match src {
            Source::Client(b) => b.len(),
            Source::Buffer { size, .. } => size,
        };
        if (!layout.custom && size != tight) || size < span {
            return Err(GlError::InvalidValue(
                "imageSize does not match the format and dimensions",
            ));
        }
        let bytes = self.compressed_source(src)?;
        Ok(layout.gather(&bytes))
    }

    /// glCompressedTexImage2D: a 2D level or one face of a cube map level.
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        border: i32,
        src: Source<'_>,
    ) {
        self.dispatch(
            "glCompressedTexImage2D",
            Group::CheckedOut,
            || (),
            |this| {
                let r = this.bound_texture_of(
                    target,
                    &[gl::TEXTURE_2D, gl::TEXTURE_CUBE_MAP_POSITIVE_X],
                    "target (GL_TEXTURE_2D or a cube map face)",
                )?;
                let face = cube_face_of(target);
                if face.is_some() && width != height {
                    return Err(GlError::InvalidValue("cube map faces must be square"));
                }
                let dims = [width, height, 1];
                this.compressed_image(r, face, level, internalformat, dims, border, src)
            },
        )
    }

    /// glCompressedTexImage3D: a 2D array level (every specific format) or a 3D level
    /// (BPTC only).
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_tex_image_3d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: u32,
        dims: [i32; 3],
        border: i32,
        src: Source<'_>,
    ) {
        self.dispatch(
            "glCompressedTexImage3D",
            Group::CheckedOut,
            || (),
            |this| {
                let r = this.bound_texture_of(
                    target,
                    &[gl::TEXTURE_2D_ARRAY, gl::TEXTURE_3D],
                    "target (GL_TEXTURE_2D_ARRAY or GL_TEXTURE_3D)",
                )?;
                this.compressed_image(r, None, level, internalformat, dims, border, src)
            },
        )
    }

    /// The body of glCompressedTexImage2D/3D on texture `r` (`face`: one cube face).
    #[allow(clippy::too_many_arguments)]
    fn compressed_image(
        &mut self,
        r: TexRef,
        face: Option<u32>,
        level: i32,
        internalformat: u32,
        [width, height, depth]: [i32; 3],
        border: i32,
        src: Source<'_>,
    ) -> GlResult<()> {
        let c = specific(internalformat).ok_or(GlError::BadEnum(
            "internal format (a specific compressed format)",
            internalformat,
        ))?;
        let lvl = Self::check_level(level)?;
        let (w, h) = Self::check_size(width, height)?;
        let d = Self::check_layers(depth)?;
        let kind = self.texture(r).map(|t| t.kind()).unwrap_or_default();
        if border != 0 {
            return Err(GlError::InvalidValue("border must be 0"));
        }
        check_target(kind, internalformat)?;
        let dims = [w as usize, h as usize, d as usize];
        let blocks = self.upload_blocks(c, dims, kind == TexKind::D3, src)?;
        let ifmt = internal_format(internalformat).expect("a specific format has a record");
        let t = self.texture_for_state_change_of(r)?;
        if t.immutable {
            return Err(GlError::InvalidOperation("texture storage is immutable"));
        }
        // A whole level gets a new image; one face keeps the level's six-face image when it
        // matches, else replaces it (as glTexImage2D does).
        let keep = t.levels[lvl]
            .clone()
            .filter(|i| face.is_some() && i.width() == w && i.height() == h && i.depth() == 6)
            .filter(|_| t.formats[lvl] == Some(ifmt));
        let img = match keep {
            Some(img) => img,
            None => {
                let layers = if face.is_some() { 6 } else { d };
                let img = Arc::new(crate::api::pixels::new_image_layers(
                    w,
                    h,
                    layers,
                    ifmt.storage,
                )?);
                t.levels[lvl] = Some(img.clone());
                t.cube_faces[lvl] = 0;
                t.compressed[lvl] = None;
                img
            }
        };
        let at = [0, 0, face.unwrap_or(0) as usize];
        self.write_blocks(r, lvl, &img, c, at, dims, blocks)?;
        let t = self.texture_for_state_change_of(r)?;
        if let Some(face) = face {
            t.cube_faces[lvl] |= 1 << face;
        }
        t.formats[lvl] = Some(ifmt);
        self.texture_changed(r);
        Ok(())
    }

    /// glCompressedTexSubImage2D (`texture` None) and glCompressedTextureSubImage2D.
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_sub_image_2d(
        &mut self,
        name: &'static str,
        (target, texture): (u32, Option<u32>),
        level: i32,
        [x, y]: [i32; 2],
        [w, h]: [i32; 2],
        format: u32,
        src: Source<'_>,
    ) {
        self.dispatch(
            name,
            Group::CheckedOut,
            || (),
            |this| {
                let (r, z) = match texture {
                    Some(t) => (this.dsa_texture_of(t, &[gl::TEXTURE_2D])?, 0),
                    None => {
                        let r = this.bound_texture_of(
                            target,
                            &[gl::TEXTURE_2D, gl::TEXTURE_CUBE_MAP_POSITIVE_X],
                            "target (GL_TEXTURE_2D or a cube map face)",
                        )?;
                        (r, cube_face_of(target).unwrap_or(0) as i32)
                    }
                };
                this.compressed_sub_image(r, level, [x, y, z], [w, h, 1], format, src)
            },
        )
    }

    /// glCompressedTexSubImage3D (`texture` None) and glCompressedTextureSubImage3D (a cube
    /// map's z is the face).
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_sub_image_3d(
        &mut self,
        name: &'static str,
        (target, texture): (u32, Option<u32>),
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        src: Source<'_>,
    ) {
        self.dispatch(
            name,
            Group::CheckedOut,
            || (),
            |this| {
                let r = match texture {
                    Some(t) => this.dsa_texture_of(
                        t,
                        &[gl::TEXTURE_2D_ARRAY, gl::TEXTURE_3D, gl::TEXTURE_CUBE_MAP],
                    )?,
                    None => this.bound_texture_of(
                        target,
                        &[gl::TEXTURE_2D_ARRAY, gl::TEXTURE_3D],
                        "target (GL_TEXTURE_2D_ARRAY or GL_TEXTURE_3D)",
                    )?,
                };
                this.compressed_sub_image(r, level, offset, size, format, src)
            },
        )
    }

    /// The body of glCompressedTex(ture)SubImage*: the box at `offset` (x, y, layer or face
    /// or slice) of `size` texels, whole blocks but at the level's right and bottom edges
    /// (GL 4.5 core §8.7).
    fn compressed_sub_image(
        &mut self,
        r: TexRef,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        src: Source<'_>,
    ) -> GlResult<()> {
        let c = specific(format).ok_or(GlError::BadEnum(
            "format (a specific compressed format)",
            format,
        ))?;
        let lvl = Self::check_level(level)?;
        let t = self
            .texture(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        let img = t.levels[lvl]
            .clone()
            .ok_or(GlError::InvalidOperation("level not specified"))?;
        if t.formats[lvl].map(|f| f.gl) != Some(format) {
            return Err(GlError::InvalidOperation(
                "format differs from the level's internal format",
            ));
        }
        let kind = t.kind();
        if offset.iter().chain(&size).any(|&v| v < 0) {
            return Err(GlError::InvalidValue("negative offset or size"));
        }
        let [x, y, z] = offset.map(|v| v as usize);
        let [w, h, d] = size.map(|v| v as usize);
        let (lw, lh, ld) = (
            img.width() as usize,
            img.height() as usize,
            img.depth() as usize,
        );
        if x + w > lw || y + h > lh || z + d > ld {
            return Err(GlError::InvalidValue("region outside the image"));
        }
        if !whole_blocks(x, w, lw) || !whole_blocks(y, h, lh) {
            return Err(GlError::InvalidOperation(
                "compressed region is not aligned to 4×4 blocks",
            ));
        }
        let blocks = self.upload_blocks(c, [w, h, d], kind == TexKind::D3, src)?;
        self.write_blocks(r, lvl, &img, c, [x, y, z], [w, h, d], blocks)
    }

    /// Writes tightly packed `blocks` of format `c` covering the box at `offset` of `size`
    /// texels into level `lvl` of `r` (its image `img`): their decoded texels into the
    /// image, the blocks into the level's kept ones. Zero blocks stand for the rest of a
    /// level that had none (storage whose contents are undefined until written).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write_blocks(
        &mut self,
        r: TexRef,
        lvl: usize,
        img: &Arc<Image>,
        c: Compressed,
        [x, y, z]: [usize; 3],
        [w, h, d]: [usize; 3],
        blocks: Vec<u8>,
    ) -> GlResult<()> {
        let texels = decode_layers(c, [w, h, d], &blocks)?;
        let (lw, lh, ld) = (
            img.width() as usize,
            img.height() as usize,
            img.depth() as usize,
        );
        let flushed = self.flush_raster();
        let bpt = img.format().bytes_per_texel();
        for row in 0..h * d {
            let (layer, rr) = (z + row / h.max(1), row % h.max(1));
            let at = ((layer * lh + y + rr) * lw + x) * bpt;
            img.write_bytes_flushed(&flushed, at, &texels[row * w * bpt..(row + 1) * w * bpt]);
        }
        let level_blocks = [lw.div_ceil(BLOCK), lh.div_ceil(BLOCK)];
        let t = self
            .texture_mut(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        let mut kept = match t.compressed[lvl].take() {
            Some(k) if k.of(img).is_some() => k,
            _ => KeptBlocks {
                image: Arc::downgrade(img),
                blocks: vec![0; c.image_bytes(lw, lh).unwrap_or(0) * ld],
            },
        };
        let mut region = blocks;
        let size_blocks = [w.div_ceil(BLOCK), h.div_ceil(BLOCK), d];
        copy_blocks(
            &mut kept.blocks,
            level_blocks,
            &mut region,
            [x / BLOCK, y / BLOCK, z],
            size_blocks,
            c.block_bytes(),
            true,
        );
        t.compressed[lvl] = Some(kept);
        Ok(())
    }

    /// glGetCompressedTexImage, glGetnCompressedTexImage, glGetCompressedTextureImage and
    /// glGetCompressedTextureSubImage (`name`): the level's blocks as uploaded (`sub`: the
    /// box at offset of size, whole blocks but at the edges), into `dest`; `limit` is the
    /// robust forms' bufSize.
    #[allow(clippy::too_many_arguments)]
    pub fn get_compressed_image(
        &mut self,
        name: &'static str,
        (target, texture): (u32, Option<u32>),
        level: i32,
        sub: Option<([i32; 3], [i32; 3])>,
        limit: Option<usize>,
        dest: Dest<'_>,
    ) {
        self.dispatch(
            name,
            Group::CheckedOut,
            || (),
            |this| {
                let r = this.download_texture(target, texture)?;
                if texture.is_none() && target == gl::TEXTURE_CUBE_MAP {
                    return Err(GlError::BadEnum(
                        "target (a cube map face, not GL_TEXTURE_CUBE_MAP)",
                        target,
                    ));
                }
                let lvl = Self::check_level(level)?;
                let t = this
                    .texture(r)
                    .ok_or(GlError::InvalidOperation("no texture"))?;
                let img = t.levels[lvl]
                    .clone()
                    .ok_or(GlError::InvalidOperation("level not specified"))?;
                let c = t.formats[lvl].and_then(|f| specific(f.gl)).ok_or(
                    GlError::InvalidOperation("the level's internal format is not compressed"),
                )?;
                let kept = t.compressed[lvl].as_ref().and_then(|k| k.of(&img)).ok_or(
                    GlError::InvalidOperation(
                        "the level was written through an uncompressed path; softgl keeps no \
                     compressed copy of it (it does not re-compress)",
                    ),
                )?;
                let (lw, lh, ld) = (
                    img.width() as usize,
                    img.height() as usize,
                    img.depth() as usize,
                );
                let face = cube_face_of(target).filter(|_| texture.is_none());
                let (o, s) = match (sub, face) {
                    (Some((o, s)), _) => {
                        if o.iter().chain(&s).any(|&v| v < 0) {
                            return Err(GlError::InvalidValue("negative offset or size"));
                        }
                        let (o, s) = (o.map(|v| v as usize), s.map(|v| v as usize));
                        if o[0] + s[0] > lw || o[1] + s[1] > lh || o[2] + s[2] > ld {
                            return Err(GlError::InvalidValue("region outside the image"));
                        }
                        if !whole_blocks(o[0], s[0], lw) || !whole_blocks(o[1], s[1], lh) {
                            return Err(GlError::InvalidOperation(
                                "compressed region is not aligned to 4×4 blocks",
                            ));
                        }
                        (o, s)
                    }
                    (None, Some(f)) => ([0, 0, f as usize], [lw, lh, 1]),
                    (None, None) => ([0; 3], [lw, lh, ld]),
                };
                let size_blocks = [s[0].div_ceil(BLOCK), s[1].div_ceil(BLOCK), s[2]];
                let bb = c.block_bytes();
                let mut region = vec![0u8; size_blocks.iter().product::<usize>() * bb];
                let mut kept = kept.to_vec();
                copy_blocks(
                    &mut kept,
                    [lw.div_ceil(BLOCK), lh.div_ceil(BLOCK)],
                    &mut region,
                    [o[0] / BLOCK, o[1] / BLOCK, o[2]],
                    size_blocks,
                    bb,
                    false,
                );
                let three_d = t.kind() == TexKind::D3 || s[2] > 1;
                let store = this.pack;
                check_store(&store)?;
                let layout = Layout::new(c, s, &store, three_d);
                let span = layout
                    .span()
                    .ok_or(GlError::OutOfMemory("compressed image size overflows"))?;
                if limit.is_some_and(|l| l < span) {
                    return Err(GlError::InvalidOperation(
                        "bufSize is smaller than the compressed image",
                    ));
                }
                match dest {
                    Dest::Client(out) => {
                        let buf = out(span)?;
                        layout.scatter(&region, buf);
                        Ok(())
                    }
                    Dest::Buffer(offset) => {
                        let old =
                            this.pixel_buffer_range(gl::PIXEL_PACK_BUFFER, offset, span, 1)?;
                        let mut bytes = old[offset..offset + span].to_vec();
                        layout.scatter(&region, &mut bytes);
                        this.store_bytes(gl::PIXEL_PACK_BUFFER, offset, &bytes)
                    }
                }
            },
        )
    }

    /// glGetCompressedTexImage into a new vector (the Rust form of the command).
    pub fn get_compressed_tex_image(&mut self, target: u32, level: i32) -> Vec<u8> {
        let mut v = Vec::new();
        let vr = &mut v;
        let out = move |n: usize| -> GlResult<&mut [u8]> {
            let v = vr;
            v.try_reserve_exact(n)
                .map_err(|_| GlError::OutOfMemoryFor(n as u64, "bytes of blocks"))?;
            v.resize(n, 0);
            Ok(&mut v[..])
        };
        let name = "glGetCompressedTexImage";
        let dest = Dest::Client(Box::new(out));
        self.get_compressed_image(name, (target, None), level, None, None, dest);
        v
    }

    /// GL_TEXTURE_COMPRESSED_IMAGE_SIZE of a level: the bytes glGetCompressedTexImage
    /// returns for it (one face of a cube map); INVALID_OPERATION when the level is not
    /// compressed (GL 4.5 core §8.11.3).
    pub(crate) fn compressed_image_size(&self, r: TexRef, lvl: usize, face: bool) -> GlResult<i32> {
        let t = self
            .texture(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        let img = t.levels[lvl].as_ref();
        let c = t.formats[lvl].and_then(|f| specific(f.gl));
        match (img, c) {
            (Some(img), Some(c)) => {
                let layer = c
                    .image_bytes(img.width() as usize, img.height() as usize)
                    .unwrap_or(0);
                let layers = if face { 1 } else { img.depth() as usize };
                Ok(i32::try_from(layer * layers).unwrap_or(i32::MAX))
            }
            _ => Err(GlError::InvalidOperation(
                "GL_TEXTURE_COMPRESSED_IMAGE_SIZE of a level that is not compressed",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_format_is_specific_and_has_a_record() {
        for f in FORMATS {
            let c = specific(f).expect("listed formats are specific");
            let i = internal_format(f).unwrap();
            assert_eq!(i.storage, c.storage());
            assert!(i.sized);
        }
        assert!(
            specific(gl::COMPRESSED_RGBA).is_none(),
            "generic formats are not"
        );
    }

    #[test]
    fn layout_skips_whole_blocks_when_the_block_parameters_are_set() {
        let c = Compressed::Bc7 { srgb: false };
        let tight = Layout::new(c, [8, 8, 1], &PixelStore::INITIAL, false);
        assert_eq!(
            (tight.span(), tight.tight(), tight.custom),
            (Some(64), Some(64), false)
        );
        let mut s = PixelStore::INITIAL;
        s.row_length = 16;
        s.skip_pixels = 4;
        s.skip_rows = 8;
        // Without COMPRESSED_BLOCK_SIZE/WIDTH the texel parameters do not apply.
        assert_eq!(Layout::new(c, [8, 8, 1], &s, false), tight);
        s.compressed_block = [4, 4, 1, 16];
        let l = Layout::new(c, [8, 8, 1], &s, false);
        // Four blocks per row, two rows skipped, one block skipped.
        assert_eq!(l.at(0, 0, 0), Some((2 * 4 + 1) * 16));
        assert_eq!(l.span(), Some(((3 * 4) + 1 + 2) * 16));
        let src: Vec<u8> = (0..l.span().unwrap()).map(|i| (i / 16) as u8).collect();
        let g = l.gather(&src);
        assert_eq!(
            g.iter().step_by(16).copied().collect::<Vec<_>>(),
            [9, 10, 13, 14]
        );
        let mut back = vec![0xFF; l.span().unwrap()];
        l.scatter(&g, &mut back);
        assert_eq!(back[9 * 16], 9);
        assert_eq!(back[0], 0xFF, "skipped bytes are left alone");
    }

    #[test]
    fn edge_blocks_may_be_partial_and_interior_ones_not() {
        let c = Compressed::Rgtc1 { signed: false };
        let l = Layout::new(c, [6, 5, 2], &PixelStore::INITIAL, true);
        assert_eq!(l.size, [2, 2, 2]);
        assert_eq!(l.tight(), Some(2 * 2 * 2 * 8));
    }
}
