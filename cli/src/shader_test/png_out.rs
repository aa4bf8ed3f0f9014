//! Writing a framebuffer read back from GL as a PNG: glReadPixels rows run bottom-up
//! (GL 4.5 core §18.2.6: the first row is window y = 0), PNG rows top-down.

use std::io::Write;

/// Why a PNG could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The pixel buffer is not `width * height * 4` bytes.
    #[error("{got} bytes of pixels for a {width}x{height} RGBA8 image")]
    Size { width: u32, height: u32, got: usize },
    #[error("PNG encoding: {0}")]
    Encode(#[from] png::EncodingError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Encodes bottom-up RGBA8 pixels (as glReadPixels returns them) as a PNG into `out`.
pub fn encode_rgba8_bottom_up(
    out: impl Write,
    width: u32,
    height: u32,
    pixels: &[u8],
) -> Result<(), PngError> {
    let row = width as usize * 4;
    if pixels.len() != row * height as usize {
        return Err(PngError::Size {
            width,
            height,
            got: pixels.len(),
        });
    }
    let mut enc = png::Encoder::new(out, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    let mut flipped = Vec::with_capacity(pixels.len());
    for y in (0..height as usize).rev() {
        flipped.extend_from_slice(&pixels[y * row..(y + 1) * row]);
    }
    writer.write_image_data(&flipped)?;
    writer.finish()?;
    Ok(())
}

/// Writes bottom-up RGBA8 pixels to a PNG file.
pub fn write_rgba8_bottom_up(
    path: &std::path::Path,
    width: u32,
    height: u32,
    pixels: &[u8],
) -> Result<(), PngError> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    encode_rgba8_bottom_up(file, width, height, pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_flipped() {
        // 1×2: bottom row red, top row blue; the PNG's first row must be blue.
        let pixels = [255, 0, 0, 255, 0, 0, 255, 255];
        let mut bytes = Vec::new();
        encode_rgba8_bottom_up(&mut bytes, 1, 2, &pixels).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (1, 2));
        assert_eq!(&buf[..8], &[0, 0, 255, 255, 255, 0, 0, 255]);
    }

    #[test]
    fn wrong_size_is_an_error() {
        let mut bytes = Vec::new();
        assert!(matches!(
            encode_rgba8_bottom_up(&mut bytes, 2, 2, &[0; 15]),
            Err(PngError::Size { got: 15, .. })
        ));
    }
}
