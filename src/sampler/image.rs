//! Pixel storage shared by textures, renderbuffers and the default framebuffer: one linear
//! image of one format. Owns the raw texel memory; the rasterizer writes tiles through it and
//! the sampler reads texels through it (the "raw texel pointers" island of DESIGN.md §2).

use std::cell::UnsafeCell;

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
        }
    }
    pub const fn is_depth(self) -> bool {
        matches!(self, Format::Depth24Stencil8 | Format::Depth32F)
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
        }
    }
}

/// A linear 2D image: rows of `width` texels, no padding, row 0 at the bottom (GL order).
///
/// Writers and readers coordinate by protocol, not by lock: during a scene flush each tile
/// of a render target is written by exactly one worker, and the API flushes queued work
/// before it reads or writes an image on the API thread (DESIGN.md §5 flush points).
pub struct Image {
    width: u32,
    height: u32,
    format: Format,
    data: Box<[UnsafeCell<u8>]>,
}

// SAFETY: all access to `data` goes through `texel_ptr` (whose callers uphold the
// one-writer-per-texel protocol documented on `Image`) or through `&mut self`.
unsafe impl Sync for Image {}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("format", &self.format)
            .finish()
    }
}

impl Image {
    /// A zero-filled image.
    pub fn new(width: u32, height: u32, format: Format) -> Image {
        let len = width as usize * height as usize * format.bytes_per_texel();
        let data = (0..len).map(|_| UnsafeCell::new(0u8)).collect();
        Image {
            width,
            height,
            format,
            data,
        }
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
        self.data.len()
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
        self.data[off].get()
    }
    /// Copies all bytes out. The caller (the API thread) has flushed queued work first.
    pub fn to_bytes(&self) -> Vec<u8> {
        // SAFETY: UnsafeCell<u8> has the layout of u8, and no worker writes this image while
        // the API thread reads it (flush protocol, see the type's docs).
        let bytes =
            unsafe { std::slice::from_raw_parts(self.data.as_ptr() as *const u8, self.data.len()) };
        bytes.to_vec()
    }
    /// Copies bytes from `offset` into `dst` (clipped to the image; bytes past the end are
    /// left untouched). Returns how many bytes were copied. The caller (the API thread) has
    /// flushed queued work that writes this image first.
    pub fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> usize {
        let end = (offset.saturating_add(dst.len())).min(self.data.len());
        if offset >= end {
            return 0;
        }
        // SAFETY: the range is in bounds; UnsafeCell<u8> has the layout of u8, and no worker
        // writes this image while the API thread reads it (flush protocol, see the type's
        // docs).
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.data[offset].get() as *const u8,
                dst.as_mut_ptr(),
                end - offset,
            );
        }
        end - offset
    }
    /// Writes `src` at byte offset `offset` (clipped to the image). The caller (the API
    /// thread) has flushed queued work that reads or writes this image first.
    pub fn write_bytes(&self, offset: usize, src: &[u8]) {
        let end = (offset.saturating_add(src.len())).min(self.data.len());
        if offset >= end {
            return;
        }
        // SAFETY: the range is in bounds; no worker touches this image while the API thread
        // writes it (flush protocol, see the type's docs).
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), self.data[offset].get(), end - offset);
        }
    }
    /// Mutable byte view, for uploads and clears on the API thread.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: `&mut self` proves exclusive access; UnsafeCell<u8> has the layout of u8.
        unsafe {
            std::slice::from_raw_parts_mut(self.data.as_mut_ptr() as *mut u8, self.data.len())
        }
    }
}
