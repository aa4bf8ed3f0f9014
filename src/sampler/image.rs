//! Pixel storage shared by textures, renderbuffers and the default framebuffer: one linear
//! image of one format. Owns the raw texel memory; the rasterizer writes tiles through it and
//! the sampler reads texels through it (the "raw texel pointers" island of DESIGN.md §2).

use std::cell::UnsafeCell;
use std::sync::Arc;

/// Internal storage formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Rgba8,
    Srgb8Alpha8,
    R8,
    Rg8,
    Rgba16F,
    Rgba32F,
    R32F,
    /// Packed as a little-endian u32: depth in bits 0..24, stencil in 24..32.
    Depth24Stencil8,
    Depth32F,
    /// An integer colour format (R8I … RGBA32UI): sampled as unconverted integers.
    Int(IntFormat),
    /// A signed normalized colour format (R8_SNORM … RGBA16_SNORM), stored as GL lays it
    /// out (two's complement words): see `SnormFormat`.
    Snorm(SnormFormat),
    /// RGB10_A2UI: one little-endian u32 per texel, R in bits 0..10, G in 10..20, B in
    /// 20..30, A in 30..32 (GL's UNSIGNED_INT_2_10_10_10_REV layout, so uploads of that type,
    /// image load/store as `rgb10_a2ui` and views of 32-bit formats move the word as it is).
    /// Sampled as unconverted unsigned integers, like `Int`.
    Rgb10A2ui,
}

/// A signed normalized format (GL 4.5 core table 8.12, R8_SNORM … RGBA16_SNORM):
/// `channels` (1 to 4) two's-complement words of `bytes` (1 or 2) each, little-endian.
/// A word c reads as max(c / (2^(b-1) - 1), -1) (GL 4.5 core eq. 2.2).
///
/// Why a storage of its own rather than floats (as RGB10_A2 and the 16-bit unorm formats
/// are kept): the bytes are GL's, so BYTE/SHORT uploads and downloads copy them bit for bit
/// (-128 and -127 both survive, though both read as -1.0), image load/store
/// reinterprets them as the table 8.27 formats of the same size (`r16` ↔ `rg8_snorm`),
/// texture views of one view class line up with RGBA8/RGBA8I/... storage, and a texel
/// costs 1 to 8 bytes instead of 16. Sampling decodes through a per-format loader
/// (`format::LoadSnorm`), so the RGBA8 paths are untouched.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SnormFormat {
    pub channels: u8,
    pub bytes: u8,
}

impl SnormFormat {
    /// Every snorm format: R, RG, RGB, RGBA × 8, 16 bits.
    pub const ALL: [SnormFormat; 8] = {
        let mut out = [SnormFormat {
            channels: 1,
            bytes: 1,
        }; 8];
        let mut i = 0;
        while i < 8 {
            out[i] = SnormFormat {
                channels: (i / 2) as u8 + 1,
                bytes: (i % 2) as u8 + 1,
            };
            i += 1;
        }
        out
    };

    /// The GL sized internal format enum.
    pub const fn gl(self) -> u32 {
        use crate::gl::enums as gl;
        match (self.channels, self.bytes) {
            (1, 1) => gl::R8_SNORM,
            (1, _) => gl::R16_SNORM,
            (2, 1) => gl::RG8_SNORM,
            (2, _) => gl::RG16_SNORM,
            (3, 1) => gl::RGB8_SNORM,
            (3, _) => gl::RGB16_SNORM,
            (_, 1) => gl::RGBA8_SNORM,
            (_, _) => gl::RGBA16_SNORM,
        }
    }

    /// The format of a GL sized internal format enum, if it is a snorm one.
    pub fn from_gl(e: u32) -> Option<SnormFormat> {
        SnormFormat::ALL.into_iter().find(|f| f.gl() == e)
    }

    /// 2^(b-1) - 1: the word that reads as 1.0 (127 or 32767).
    pub const fn max(self) -> i32 {
        (1 << (self.bytes as u32 * 8 - 1)) - 1
    }
}

/// An integer colour format (GL 4.5 core table 8.12, R8I … RGBA32UI and the RGB ones):
/// `channels` (1 to 4) of `bytes` (1, 2 or 4) each, little-endian, signed or not. Samplers
/// return the stored integers unconverted (GL 4.5 core §8.14: only NEAREST filtering).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntFormat {
    pub channels: u8,
    pub bytes: u8,
    pub signed: bool,
}

impl IntFormat {
    /// Every integer format, in GL's table order (R, RG, RGB, RGBA × 8/16/32 × I/UI).
    pub const ALL: [IntFormat; 24] = {
        let mut out = [IntFormat {
            channels: 1,
            bytes: 1,
            signed: false,
        }; 24];
        let mut i = 0;
        while i < 24 {
            out[i] = IntFormat {
                channels: (i / 6) as u8 + 1,
                bytes: 1 << ((i / 2) % 3),
                signed: i % 2 == 0,
            };
            i += 1;
        }
        out
    };

    /// The GL sized internal format enum.
    pub const fn gl(self) -> u32 {
        use crate::gl::enums as gl;
        match (self.channels, self.bytes, self.signed) {
            (1, 1, true) => gl::R8I,
            (1, 1, false) => gl::R8UI,
            (1, 2, true) => gl::R16I,
            (1, 2, false) => gl::R16UI,
            (1, _, true) => gl::R32I,
            (1, _, false) => gl::R32UI,
            (2, 1, true) => gl::RG8I,
            (2, 1, false) => gl::RG8UI,
            (2, 2, true) => gl::RG16I,
            (2, 2, false) => gl::RG16UI,
            (2, _, true) => gl::RG32I,
            (2, _, false) => gl::RG32UI,
            (3, 1, true) => gl::RGB8I,
            (3, 1, false) => gl::RGB8UI,
            (3, 2, true) => gl::RGB16I,
            (3, 2, false) => gl::RGB16UI,
            (3, _, true) => gl::RGB32I,
            (3, _, false) => gl::RGB32UI,
            (_, 1, true) => gl::RGBA8I,
            (_, 1, false) => gl::RGBA8UI,
            (_, 2, true) => gl::RGBA16I,
            (_, 2, false) => gl::RGBA16UI,
            (_, _, true) => gl::RGBA32I,
            (_, _, false) => gl::RGBA32UI,
        }
    }

    /// The format of a GL sized internal format enum, if it is an integer one.
    pub fn from_gl(e: u32) -> Option<IntFormat> {
        IntFormat::ALL.into_iter().find(|f| f.gl() == e)
    }

    /// The smallest and largest value a channel holds, as i64.
    pub const fn range(self) -> (i64, i64) {
        let bits = self.bytes as u32 * 8;
        if self.signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, (1i64 << bits) - 1)
        }
    }
}

impl Format {
    pub const fn bytes_per_texel(self) -> usize {
        match self {
            Format::Rgba8 | Format::Srgb8Alpha8 => 4,
            Format::R8 => 1,
            Format::Rg8 => 2,
            Format::Rgba16F => 8,
            Format::Rgba32F => 16,
            Format::R32F => 4,
            Format::Depth24Stencil8 | Format::Depth32F => 4,
            Format::Int(f) => f.channels as usize * f.bytes as usize,
            Format::Snorm(f) => f.channels as usize * f.bytes as usize,
            Format::Rgb10A2ui => 4,
        }
    }
    pub const fn is_depth(self) -> bool {
        matches!(self, Format::Depth24Stencil8 | Format::Depth32F)
    }
    /// An integer format (sampled unconverted, NEAREST only).
    pub const fn is_integer(self) -> bool {
        matches!(self, Format::Int(_) | Format::Rgb10A2ui)
    }
    /// The GL internal format enum.
    pub const fn gl_internal_format(self) -> u32 {
        match self {
            Format::Rgba8 => 0x8058,
            Format::Srgb8Alpha8 => 0x8C43,
            Format::R8 => 0x8229,
            Format::Rg8 => 0x822B,
            Format::Rgba16F => 0x881A,
            Format::Rgba32F => 0x8814,
            Format::R32F => 0x822E,
            Format::Depth24Stencil8 => 0x88F0,
            Format::Depth32F => 0x8CAC,
            Format::Int(f) => f.gl(),
            Format::Snorm(f) => f.gl(),
            Format::Rgb10A2ui => crate::gl::enums::RGB10_A2UI,
        }
    }
}

/// A linear 2D image: rows of `width` texels, no padding, row 0 at the bottom (GL order).
/// A level of a 2D array texture is `depth` such images (layers) one after another; every
/// other image has depth 1, and `texel_ptr`, tile writers and blits see its layer 0.
/// A layer view (`layer_view`: a cube face, 3D slice or array layer attached to a
/// framebuffer) is a depth-1 image whose bytes are one layer of another image's storage.
///
/// Writers and readers coordinate by protocol, not by lock: during a scene flush each tile
/// of a render target is written by exactly one worker, and the API flushes queued work
/// before it reads or writes an image on the API thread (DESIGN.md §5 flush points).
pub struct Image {
    width: u32,
    height: u32,
    depth: u32,
    format: Format,
    /// The storage, shared with layer views of this image (or, for a view, with the image
    /// it views); this image's bytes are `store[offset..offset + len]`.
    store: Arc<[UnsafeCell<u8>]>,
    offset: usize,
    len: usize,
}

// SAFETY: all access to the storage goes through `&mut self` (which checks that no view
// shares it), through `write_bytes_flushed` (with the rasterizer's proof that no worker
// runs), through a `TileWriter` (whose maker upholds the one-worker-per-tile protocol) or
// through `texel_ptr` (whose callers uphold it), and the API thread's reads happen after a
// flush (the protocol documented on `Image`). A layer view is one more image under the same
// protocol: a flush covers every image, views included.
unsafe impl Sync for Image {}
// SAFETY: as for `Sync`: the shared storage is only reached under the protocol above, from
// whichever thread holds the image.
unsafe impl Send for Image {}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("depth", &self.depth)
            .field("format", &self.format)
            .finish()
    }
}

impl Image {
    /// A zero-filled image.
    pub fn new(width: u32, height: u32, format: Format) -> Image {
        Image::new_layers(width, height, 1, format)
    }
    /// A zero-filled image of `depth` layers (a 2D array texture level).
    pub fn new_layers(width: u32, height: u32, depth: u32, format: Format) -> Image {
        let len = width as usize * height as usize * depth as usize * format.bytes_per_texel();
        let store = (0..len).map(|_| UnsafeCell::new(0u8)).collect();
        Image {
            width,
            height,
            depth,
            format,
            store,
            offset: 0,
            len,
        }
    }
    /// Layer `layer` of this image as a depth-1 image sharing its storage (a cube face, 3D
    /// slice or array layer as a framebuffer attachment): what a draw, clear or blit writes
    /// into the view lands in that layer. None past the last layer.
    pub fn layer_view(&self, layer: u32) -> Option<Image> {
        if layer >= self.depth {
            return None;
        }
        let len = self.layer_bytes();
        Some(Image {
            width: self.width,
            height: self.height,
            depth: 1,
            format: self.format,
            store: self.store.clone(),
            offset: self.offset + layer as usize * len,
            len,
        })
    }
    /// Layers `first..first + layers` of this image read as `format`, sharing its storage (a
    /// texture view's level, GL 4.5 core §8.18): writes through either are seen by the
    /// other. None past the last layer, for no layer, or when `format` has another texel
    /// size (its bytes would not line up).
    pub fn layers_view_as(&self, first: u32, layers: u32, format: Format) -> Option<Image> {
        let end = first.checked_add(layers)?;
        if layers == 0
            || end > self.depth
            || format.bytes_per_texel() != self.format.bytes_per_texel()
        {
            return None;
        }
        let len = self.layer_bytes();
        Some(Image {
            width: self.width,
            height: self.height,
            depth: layers,
            format,
            store: self.store.clone(),
            offset: self.offset + first as usize * len,
            len: layers as usize * len,
        })
    }
    /// Whether `other` is this image or a view of the same storage (a layer of one texture
    /// level and another layer of it count as the same storage).
    pub fn shares_storage(&self, other: &Image) -> bool {
        Arc::ptr_eq(&self.store, &other.store)
    }
    /// This image's bytes (a view's layer of the shared storage).
    #[inline]
    fn data(&self) -> &[UnsafeCell<u8>] {
        &self.store[self.offset..self.offset + self.len]
    }
    /// Layers (1 but for 2D array texture levels).
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// Bytes of one layer.
    pub fn layer_bytes(&self) -> usize {
        self.row_bytes() * self.height as usize
    }
    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    pub fn format(&self) -> Format {
        self.format
    }
    pub fn row_bytes(&self) -> usize {
        self.width as usize * self.format.bytes_per_texel()
    }
    pub fn len_bytes(&self) -> usize {
        self.len
    }
    /// Pointer to texel (x, y). Returns null when (x, y) is outside the image.
    ///
    /// # Safety
    /// The caller must not create a data race: the bytes of this texel may only be written
    /// by one thread at a time, and not while another reads them (see the type's docs).
    pub unsafe fn texel_ptr(&self, x: u32, y: u32) -> *mut u8 {
        if x >= self.width || y >= self.height {
            return std::ptr::null_mut();
        }
        let off = (y as usize * self.width as usize + x as usize) * self.format.bytes_per_texel();
        self.data()[off].get()
    }
    /// Copies all bytes out. The caller (the API thread) has flushed queued work first.
    pub fn to_bytes(&self) -> Vec<u8> {
        let data = self.data();
        // SAFETY: UnsafeCell<u8> has the layout of u8, and no worker writes this image while
        // the API thread reads it (flush protocol, see the type's docs).
        let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, data.len()) };
        bytes.to_vec()
    }
    /// Copies bytes from `offset` into `dst` (clipped to the image; bytes past the end are
    /// left untouched). Returns how many bytes were copied. The caller (the API thread) has
    /// flushed queued work that writes this image first.
    pub fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> usize {
        let data = self.data();
        let end = (offset.saturating_add(dst.len())).min(data.len());
        if offset >= end {
            return 0;
        }
        // SAFETY: the range is in bounds; UnsafeCell<u8> has the layout of u8, and no worker
        // writes this image while the API thread reads it (flush protocol, see the type's
        // docs).
        unsafe {
            std::ptr::copy_nonoverlapping(
                data[offset].get() as *const u8,
                dst.as_mut_ptr(),
                end - offset,
            );
        }
        end - offset
    }
    /// Writes `src` at byte offset `offset` (clipped to the image): an image no one else
    /// holds yet (a new texture level, a test's fixture). `&mut` proves it.
    pub fn write_bytes(&mut self, offset: usize, src: &[u8]) {
        let end = (offset.saturating_add(src.len())).min(self.len);
        if offset < end {
            self.bytes_mut()[offset..end].copy_from_slice(&src[..end - offset]);
        }
    }
    /// Writes `src` at byte offset `offset` (clipped to the image) into an image that queued
    /// draws may share (TexSubImage, in-place mipmaps, blits). `Flushed` is the caller's
    /// proof that the rasterizer has run everything queued, so no worker touches the image.
    /// Several threads may write under one token when their byte ranges are disjoint and
    /// none of them reads those ranges (the parallel resolve of `api::blit`).
    pub fn write_bytes_flushed(&self, _flushed: &Flushed, offset: usize, src: &[u8]) {
        let data = self.data();
        let end = (offset.saturating_add(src.len())).min(data.len());
        if offset >= end {
            return;
        }
        // SAFETY: the range is in bounds; `Flushed` proves no worker of a scene reads or
        // writes this image meanwhile (the flush protocol, see the type's docs), the API
        // thread holds no reference into its bytes, and concurrent callers write disjoint
        // ranges (the contract above).
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), data[offset].get(), end - offset);
        }
    }
    /// Write access to the texels of `rect` (`[x0, y0, x1, y1]`, inclusive, clipped to the
    /// image) for the worker that owns that tile of a flush.
    ///
    /// # Safety
    /// While the writer lives, no other thread reads or writes the texels of `rect`. (Two
    /// writers of one tile on the same thread are fine: writers copy texels in and out and
    /// never lend references into the image.)
    pub unsafe fn tile_writer(&self, rect: [i32; 4]) -> TileWriter<'_> {
        let x0 = rect[0].max(0);
        let y0 = rect[1].max(0);
        let x1 = rect[2].min(self.width as i32 - 1);
        let y1 = rect[3].min(self.height as i32 - 1);
        TileWriter {
            image: self,
            data: self.data(),
            x0,
            y0,
            w: (x1 - x0 + 1).max(0) as u32,
            h: (y1 - y0 + 1).max(0) as u32,
            _one_thread: std::marker::PhantomData,
        }
    }
    /// Mutable byte view, for uploads and clears on the API thread, of an image no layer
    /// view shares (new images: views are only made of images already shared in an `Arc`).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        let (offset, len) = (self.offset, self.len);
        let store = Arc::get_mut(&mut self.store)
            .expect("an image written through &mut shares its storage with no layer view");
        let data = &mut store[offset..offset + len];
        // SAFETY: `&mut self` and the unique `Arc` prove exclusive access; UnsafeCell<u8> has
        // the layout of u8.
        unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr() as *mut u8, data.len()) }
    }
}

/// Proof that the rasterizer has completed every queued command, so no worker thread reads
/// or writes any image until new work is queued: what the API thread shows to write into an
/// image that queued draws may share (`Image::write_bytes_flushed`). Only the rasterizer's
/// flush makes one (`Flushed::assume`); it is neither `Clone` nor `Copy`, so each write
/// site stands right behind the flush that made its token.
#[derive(Debug)]
pub struct Flushed {
    _private: (),
}

impl Flushed {
    /// # Safety
    /// Every queued rasterizer command that may read or write an image has completed, and
    /// the caller queues none while it uses the token.
    pub unsafe fn assume() -> Flushed {
        Flushed { _private: () }
    }
}

/// One worker's write access to one tile of an image during a flush (`Image::tile_writer`).
/// Texels are copied in and out, never lent as references, and the writer is neither `Send`
/// nor `Sync`, so safe code cannot make two live `&mut` to a texel or hand the tile to
/// another thread; generated code gets raw pointers (`texel_ptr`) that are only used during
/// the variant call that follows.
pub struct TileWriter<'a> {
    image: &'a Image,
    /// The image's bytes (`Image::data`), looked up once.
    data: &'a [UnsafeCell<u8>],
    /// The clipped rectangle: origin and size in texels.
    x0: i32,
    y0: i32,
    w: u32,
    h: u32,
    _one_thread: std::marker::PhantomData<*mut u8>,
}

impl TileWriter<'_> {
    pub fn format(&self) -> Format {
        self.image.format
    }

    /// The clipped rectangle `[x0, y0, x1, y1]` (inclusive; x1 < x0 when empty).
    pub fn rect(&self) -> [i32; 4] {
        [
            self.x0,
            self.y0,
            self.x0 + self.w as i32 - 1,
            self.y0 + self.h as i32 - 1,
        ]
    }

    /// Pointer to texel (x, y), or null outside the writer's rectangle. Two unsigned
    /// compares, as the image bounds check it replaces.
    #[inline]
    pub fn texel_ptr(&self, x: i32, y: i32) -> *mut u8 {
        let (dx, dy) = (
            x.wrapping_sub(self.x0) as u32,
            y.wrapping_sub(self.y0) as u32,
        );
        if dx >= self.w || dy >= self.h {
            return std::ptr::null_mut();
        }
        let off = (y as usize * self.image.width as usize + x as usize)
            * self.image.format.bytes_per_texel();
        self.data[off].get()
    }

    /// Reads texel (x, y) into a 16-byte buffer (its first `bytes_per_texel` bytes), lets
    /// `f` change it, and writes it back; `None` (and no call) outside the rectangle.
    #[inline]
    pub fn update<R>(&self, x: i32, y: i32, f: impl FnOnce(&mut [u8]) -> R) -> Option<R> {
        let p = self.texel_ptr(x, y);
        if p.is_null() {
            return None;
        }
        let n = self.image.format.bytes_per_texel();
        let mut buf = [0u8; 16];
        // SAFETY: `p` points at a texel of the writer's rectangle, `n` bytes long (≤ 16), in
        // the image's storage; `tile_writer`'s contract makes this thread the only one
        // touching it, and no reference into it exists (copies only).
        unsafe { std::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), n) };
        let r = f(&mut buf[..n]);
        // SAFETY: as above.
        unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), p, n) };
        Some(r)
    }

    /// `update` for 4-byte texels (depth and stencil words, R32F, RGBA8) as one `u32`:
    /// `f` gets the stored little-endian word and returns the word to store. A plain load
    /// and store, no buffer: clears and depth tests run it per pixel. `None` outside the
    /// rectangle or for a format of another size.
    #[inline]
    pub fn update_word<R>(&self, x: i32, y: i32, f: impl FnOnce(u32) -> (u32, R)) -> Option<R> {
        let p = self.texel_ptr(x, y);
        if p.is_null() || self.image.format.bytes_per_texel() != 4 {
            return None;
        }
        // SAFETY: `p` points at a 4-byte texel of the writer's rectangle (checked above) in
        // the image's storage; `tile_writer`'s contract makes this thread the only one
        // touching it, and no reference into it exists (unaligned copies only).
        let word = u32::from_le(unsafe { std::ptr::read_unaligned(p as *const u32) });
        let (new, r) = f(word);
        // SAFETY: as above.
        unsafe { std::ptr::write_unaligned(p as *mut u32, new.to_le()) };
        Some(r)
    }

    /// Writes texel (x, y) from the first `bytes_per_texel` bytes of `src`; nothing outside
    /// the rectangle.
    #[inline]
    pub fn store(&self, x: i32, y: i32, src: &[u8]) {
        let p = self.texel_ptr(x, y);
        let n = self.image.format.bytes_per_texel();
        if p.is_null() || src.len() < n {
            return;
        }
        // SAFETY: as in `update`.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), p, n) };
    }

    /// Texels `x0..=x1` of row `y` clipped to the rectangle: the first one's address and
    /// how many there are (contiguous: one image row), or None when none is inside.
    #[inline]
    fn row_span(&self, x0: i32, x1: i32, y: i32) -> Option<(*mut u8, usize)> {
        let (x0, x1) = (x0.max(self.x0), x1.min(self.x0 + self.w as i32 - 1));
        if x0 > x1 {
            return None;
        }
        let p = self.texel_ptr(x0, y);
        (!p.is_null()).then(|| (p, (x1 - x0 + 1) as usize))
    }

    /// `store` of the same texel (`src`'s first `bytes_per_texel` bytes) to texels
    /// `x0..=x1` of row `y`: clears, a row at a time instead of a bounds check per texel.
    pub fn fill_row(&self, x0: i32, x1: i32, y: i32, src: &[u8]) {
        let n = self.image.format.bytes_per_texel();
        let Some((p, count)) = self.row_span(x0, x1, y) else {
            return;
        };
        if src.len() < n {
            return;
        }
        if n == 4 {
            let word = u32::from_ne_bytes([src[0], src[1], src[2], src[3]]);
            for i in 0..count {
                // SAFETY: texel i of the span lies in the writer's rectangle (`row_span`)
                // in the image's storage; as in `update`, this thread is the only one
                // touching it and no reference into it exists (unaligned copies only).
                unsafe { std::ptr::write_unaligned(p.add(i * 4) as *mut u32, word) };
            }
        } else {
            for i in 0..count {
                // SAFETY: as above, `n` bytes per texel.
                unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), p.add(i * n), n) };
            }
        }
    }

    /// `update_word` on texels `x0..=x1` of row `y`, a row at a time (depth and stencil
    /// clears); nothing for a format whose texels are not 4 bytes.
    pub fn update_row_words(&self, x0: i32, x1: i32, y: i32, f: impl Fn(u32) -> u32) {
        if self.image.format.bytes_per_texel() != 4 {
            return;
        }
        let Some((p, count)) = self.row_span(x0, x1, y) else {
            return;
        };
        for i in 0..count {
            let t = p.wrapping_add(i * 4) as *mut u32;
            // SAFETY: as in `fill_row`: a 4-byte texel of the writer's rectangle, this
            // thread's only, copied in and out.
            unsafe {
                std::ptr::write_unaligned(t, f(u32::from_le(std::ptr::read_unaligned(t))).to_le())
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_writers_touch_only_their_rectangle() {
        let img = Image::new(5, 4, Format::R8);
        // SAFETY: no other thread exists in this test.
        let w = unsafe { img.tile_writer([2, 1, 8, 2]) }; // clipped to x 2..=4, y 1..=2
        for y in -1..6 {
            for x in -1..7 {
                w.store(x, y, &[(10 + x) as u8]);
                let inside = (2..=4).contains(&x) && (1..=2).contains(&y);
                assert_eq!(!w.texel_ptr(x, y).is_null(), inside, "({x}, {y})");
                assert_eq!(w.update(x, y, |t| t[0] += 1).is_some(), inside);
            }
        }
        let mut want = vec![0u8; 20];
        for y in 1..=2 {
            for x in 2..=4 {
                want[y * 5 + x] = 11 + x as u8;
            }
        }
        assert_eq!(img.to_bytes(), want);
        // A rectangle outside the image gives a writer that writes nothing.
        // Words: 4-byte formats only, same rectangle rule.
        let d = Image::new(2, 2, Format::Depth32F);
        // SAFETY: as above.
        let dw = unsafe { d.tile_writer([1, 0, 1, 1]) };
        assert_eq!(dw.update_word(1, 1, |w| (w + 7, w)), Some(0));
        assert_eq!(dw.update_word(1, 1, |w| (w, w)), Some(7));
        assert_eq!(dw.update_word(0, 1, |w| (w + 1, ())), None);
        assert_eq!(
            w.update_word(2, 1, |x| (x, ())),
            None,
            "R8 is not a word format"
        );
        assert_eq!(d.to_bytes()[12..], [7, 0, 0, 0]);
        // Rows: clipped like single texels.
        let r = Image::new(6, 2, Format::Rgba8);
        // SAFETY: as above.
        let rw = unsafe { r.tile_writer([1, 0, 3, 1]) };
        rw.fill_row(-5, 9, 1, &[1, 2, 3, 4]);
        rw.fill_row(2, 2, 0, &[9, 9, 9, 9]);
        rw.update_row_words(0, 2, 1, |w| w + 1);
        let mut want_r = vec![0u8; 48];
        want_r[8..12].copy_from_slice(&[9, 9, 9, 9]);
        for x in 1..=3 {
            let t = if x <= 2 { [2, 2, 3, 4] } else { [1, 2, 3, 4] };
            want_r[24 + x * 4..][..4].copy_from_slice(&t);
        }
        assert_eq!(r.to_bytes(), want_r);
        let r8 = Image::new(3, 1, Format::Rg8);
        // SAFETY: as above.
        let r8w = unsafe { r8.tile_writer([0, 0, 1, 0]) };
        r8w.fill_row(0, 5, 0, &[7, 8]);
        r8w.update_row_words(0, 5, 0, |_| 0);
        assert_eq!(r8.to_bytes(), [7, 8, 7, 8, 0, 0]);
        // SAFETY: as above.
        let none = unsafe { img.tile_writer([64, 64, 127, 127]) };
        none.store(64, 64, &[1]);
        assert!(none.texel_ptr(0, 0).is_null());
        assert_eq!(img.to_bytes(), want);
    }

    #[test]
    fn flushed_and_exclusive_writes_clip_to_the_image() {
        let mut img = Image::new(2, 1, Format::Rgba8);
        img.write_bytes(6, &[1, 2, 3, 4]); // only 2 bytes fit
        assert_eq!(img.to_bytes(), [0, 0, 0, 0, 0, 0, 1, 2]);
        // SAFETY: no rasterizer exists in this test.
        let flushed = unsafe { Flushed::assume() };
        img.write_bytes_flushed(&flushed, 0, &[9; 3]);
        img.write_bytes_flushed(&flushed, 100, &[9; 3]);
        assert_eq!(img.to_bytes(), [9, 9, 9, 0, 0, 0, 1, 2]);
    }
}
