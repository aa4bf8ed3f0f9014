//! Compressed textures end to end through the Rust `Context` (GL 4.5 core §8.7, §8.11.4):
//! glCompressedTexImage2D/3D decode their blocks into texels that glGetTexImage and a draw
//! read back; glGetCompressedTexImage returns the blocks as uploaded, also after
//! glCompressedTexSubImage2D replaced some; cube faces and array layers; TexStorage then
//! compressed sub-images; the compressed pixel-store parameters; the level queries; a
//! compressed level is no colour attachment; and the errors GL names.

mod common;

use softgl::api::compressed::Source;
use softgl::sampler::compressed::Compressed;
use softgl::{enums as gl, Context};

/// A DXT1 block of one colour: both endpoints `c565`, every index 0.
fn bc1_solid(c565: u16) -> [u8; 8] {
    let [lo, hi] = c565.to_le_bytes();
    [lo, hi, lo, hi, 0, 0, 0, 0]
}

/// An RGTC1 block: endpoints `r0` > `r1`, index `i` for every texel (3 bits each).
fn rgtc1(r0: u8, r1: u8, i: u8) -> [u8; 8] {
    let bits: u64 = (0..16).fold(0, |acc, t| acc | (u64::from(i) << (3 * t)));
    let b = bits.to_le_bytes();
    [r0, r1, b[0], b[1], b[2], b[3], b[4], b[5]]
}

/// The texels `c` decodes `blocks` of a `w`×`h` image into, as RGBA8 the way glGetTexImage
/// reads them (storage bytes expanded by the driver; only RGBA8-stored formats here).
fn decoded_rgba(c: Compressed, w: usize, h: usize, blocks: &[u8]) -> Vec<u8> {
    c.decode(w, h, blocks).expect("whole blocks")
}

fn ctx(threads: usize) -> Context {
    common::context(8, 8, threads)
}

fn new_texture(c: &mut Context, target: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    t
}

#[test]
fn bc1_uploads_decode_and_read_back_as_uploaded() {
    let mut c = ctx(1);
    new_texture(&mut c, gl::TEXTURE_2D);
    // 8×8: four blocks, red, green, blue, white.
    let blocks: Vec<u8> = [0xF800u16, 0x07E0, 0x001F, 0xFFFF]
        .iter()
        .flat_map(|&k| bc1_solid(k))
        .collect();
    let f = gl::COMPRESSED_RGB_S3TC_DXT1_EXT;
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 8, 8, 0, Source::Client(&blocks));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let texels = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    let want = decoded_rgba(
        Compressed::Bc1 {
            alpha: false,
            srgb: false,
        },
        8,
        8,
        &blocks,
    );
    assert_eq!(texels, want);
    // Texel (0,0) red, (4,0) green, (0,4) blue, (4,4) white.
    let at = |x: usize, y: usize| &texels[(y * 8 + x) * 4..(y * 8 + x) * 4 + 4];
    assert_eq!(at(0, 0), [255, 0, 0, 255]);
    assert_eq!(at(4, 0), [0, 255, 0, 255]);
    assert_eq!(at(0, 4), [0, 0, 255, 255]);
    assert_eq!(at(7, 7), [255, 255, 255, 255]);
    assert_eq!(c.get_compressed_tex_image(gl::TEXTURE_2D, 0), blocks);
    let q = |c: &mut Context, p| c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, p);
    assert_eq!(q(&mut c, gl::TEXTURE_COMPRESSED), 1);
    assert_eq!(q(&mut c, gl::TEXTURE_COMPRESSED_IMAGE_SIZE), 32);
    assert_eq!(q(&mut c, gl::TEXTURE_INTERNAL_FORMAT), f as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // A sub-image replaces the top-right block; both the texels and the kept blocks follow.
    let yellow = bc1_solid(0xFFE0);
    c.compressed_sub_image_2d(
        "glCompressedTexSubImage2D",
        (gl::TEXTURE_2D, None),
        0,
        [4, 0],
        [4, 4],
        f,
        Source::Client(&yellow),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let mut want_blocks = blocks.clone();
    want_blocks[8..16].copy_from_slice(&yellow);
    assert_eq!(c.get_compressed_tex_image(gl::TEXTURE_2D, 0), want_blocks);
    let texels = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(&texels[4 * 4..5 * 4], [255, 255, 0, 255]);

    // An uncompressed sub-image is compressed by the GL: black texels become a black block.
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        4,
        4,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[0; 64],
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_compressed_tex_image(gl::TEXTURE_2D, 0);
    assert_eq!(back[..8], [0; 8]);
    assert_eq!(back[8..], want_blocks[8..]);
    let texels = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(texels[..4], [0, 0, 0, 255], "DXT1 without alpha is opaque");
}

#[test]
fn uncompressed_uploads_are_compressed_where_softgl_has_an_encoder() {
    let mut c = ctx(1);
    new_texture(&mut c, gl::TEXTURE_2D);
    // A 6×6 gradient (partial edge blocks) into DXT5 and signed RGTC2.
    let rgba: Vec<u8> = (0..36u32)
        .flat_map(|i| [(i * 3) as u8, (200 - i * 2) as u8, i as u8, (i * 4) as u8])
        .collect();
    let cases = [
        (
            gl::COMPRESSED_RGBA_S3TC_DXT5_EXT,
            Compressed::Bc3 { srgb: false },
        ),
        (gl::COMPRESSED_RG_RGTC2, Compressed::Rgtc2 { signed: false }),
    ];
    for (f, comp) in cases {
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            f as i32,
            6,
            6,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&rgba),
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let blocks = c.get_compressed_tex_image(gl::TEXTURE_2D, 0);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(blocks.len(), comp.image_bytes(6, 6).unwrap());
        // What the level holds is exactly the decode of the blocks it reads back as.
        let stored = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
        let decoded = comp.decode(6, 6, &blocks).unwrap();
        let bpp = comp.storage().bytes_per_texel();
        for (i, t) in stored.chunks(4).enumerate() {
            let d = &decoded[i * bpp..(i + 1) * bpp];
            assert_eq!(t[..bpp.min(4)], d[..bpp.min(4)], "texel {i}");
            // And close to what was uploaded.
            for k in 0..bpp.min(4) {
                let diff = (t[k] as i32 - rgba[4 * i + k] as i32).abs();
                assert!(
                    diff <= 16,
                    "texel {i} channel {k}: {} → {}",
                    rgba[4 * i + k],
                    t[k]
                );
            }
        }
    }
    // BPTC has no encoder: the texels are kept as given, and there are no blocks to read.
    let f = gl::COMPRESSED_RGBA_BPTC_UNORM as i32;
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        f,
        6,
        6,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&rgba),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE),
        rgba
    );
    assert!(c.get_compressed_tex_image(gl::TEXTURE_2D, 0).is_empty());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn a_draw_samples_the_decoded_texels_the_same_at_1_and_2_threads() {
    const VS: &str = "#version 330
    void main() {
        int id = gl_VertexID;
        gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
    }";
    const FS: &str = "#version 330
    uniform sampler2D s;
    out vec4 color;
    void main() { color = texelFetch(s, ivec2(gl_FragCoord.xy), 0); }";
    let blocks: Vec<u8> = [(200u8, 10u8, 0u8), (200, 10, 1), (200, 10, 4), (255, 0, 7)]
        .iter()
        .flat_map(|&(a, b, i)| rgtc1(a, b, i))
        .collect();
    let images: Vec<Vec<u8>> = [1, 2]
        .map(|threads| {
            let mut c = ctx(threads);
            new_texture(&mut c, gl::TEXTURE_2D);
            let f = gl::COMPRESSED_RED_RGTC1;
            c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 8, 8, 0, Source::Client(&blocks));
            c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
            let p = common::program(&mut c, VS, FS);
            c.use_program(p);
            c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE)
        })
        .to_vec();
    assert_eq!(images[0], images[1]);
    let px = |x: usize, y: usize| &images[0][(y * 8 + x) * 4..(y * 8 + x) * 4 + 4];
    // With r0 > r1, index 0 is r0, 1 is r1, and i in 2..=7 is ((8 − i)·r0 + (i − 1)·r1)/7
    // rounded: index 4 of (200, 10) is 830/7 = 118.6, index 7 of (255, 0) is 36.4.
    assert_eq!(px(0, 0), [200, 0, 0, 255]);
    assert_eq!(px(4, 0), [10, 0, 0, 255]);
    assert_eq!(px(0, 4), [119, 0, 0, 255]);
    assert_eq!(px(4, 4), [36, 0, 0, 255]);
}

#[test]
fn storage_then_sub_images_cube_faces_and_array_layers() {
    let mut c = ctx(1);
    let f = gl::COMPRESSED_RGBA_BPTC_UNORM;
    let c7 = Compressed::Bc7 { srgb: false };
    // Mode 6 blocks of a few colours (byte 0 = 0x40 selects mode 6; the rest endpoints).
    let block = |k: u8| {
        let mut b = [0u8; 16];
        b[0] = 0x40;
        for (i, v) in b.iter_mut().enumerate().skip(1) {
            *v = k.wrapping_mul(31).wrapping_add(i as u8 * 7);
        }
        b
    };
    new_texture(&mut c, gl::TEXTURE_2D_ARRAY);
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 2, f, 8, 4, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Layers 1 and 2 of level 0, the right block of each.
    let data: Vec<u8> = [block(1), block(2)].concat();
    c.compressed_sub_image_3d(
        "glCompressedTexSubImage3D",
        (gl::TEXTURE_2D_ARRAY, None),
        0,
        [4, 0, 1],
        [4, 4, 2],
        f,
        Source::Client(&data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_compressed_tex_image(gl::TEXTURE_2D_ARRAY, 0);
    assert_eq!(back.len(), 3 * 2 * 16);
    assert_eq!(&back[(2 + 1) * 16..(2 + 2) * 16], block(1));
    assert_eq!(&back[(4 + 1) * 16..(4 + 2) * 16], block(2));
    let texels = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    let want = c7.decode(4, 4, &block(2)).unwrap();
    // Row 0 of layer 2, x 4..8.
    let layer2 = 2 * 8 * 4 * 4;
    assert_eq!(&texels[layer2 + 16..layer2 + 32], &want[..16]);
    // Level 1 is 4×2: a partial block at the edge is allowed.
    c.compressed_sub_image_3d(
        "glCompressedTexSubImage3D",
        (gl::TEXTURE_2D_ARRAY, None),
        1,
        [0, 0, 0],
        [4, 2, 1],
        f,
        Source::Client(&block(3)),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // Cube faces through glCompressedTexImage2D.
    new_texture(&mut c, gl::TEXTURE_CUBE_MAP);
    for face in 0..6u8 {
        let t = gl::TEXTURE_CUBE_MAP_POSITIVE_X + face as u32;
        c.compressed_tex_image_2d(t, 0, f, 4, 4, 0, Source::Client(&block(face)));
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for face in 0..6u8 {
        let t = gl::TEXTURE_CUBE_MAP_POSITIVE_X + face as u32;
        assert_eq!(c.get_compressed_tex_image(t, 0), block(face));
        assert_eq!(
            c.get_tex_level_parameteriv(t, 0, gl::TEXTURE_COMPRESSED_IMAGE_SIZE),
            16
        );
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn compressed_pixel_store_parameters_pick_blocks_out_of_a_larger_image() {
    let mut c = ctx(1);
    new_texture(&mut c, gl::TEXTURE_2D);
    let f = gl::COMPRESSED_RGB_S3TC_DXT1_EXT;
    // Client image: 3 blocks per row, 2 rows; the texture takes the 2×1 blocks at (1, 1).
    let client: Vec<u8> = (0..6u16).flat_map(|k| bc1_solid(k * 1000)).collect();
    c.pixel_storei(gl::UNPACK_COMPRESSED_BLOCK_WIDTH, 4);
    c.pixel_storei(gl::UNPACK_COMPRESSED_BLOCK_HEIGHT, 4);
    c.pixel_storei(gl::UNPACK_COMPRESSED_BLOCK_SIZE, 8);
    c.pixel_storei(gl::UNPACK_ROW_LENGTH, 12);
    c.pixel_storei(gl::UNPACK_SKIP_PIXELS, 4);
    c.pixel_storei(gl::UNPACK_SKIP_ROWS, 4);
    assert_eq!(c.get_integerv(gl::UNPACK_COMPRESSED_BLOCK_SIZE), [8]);
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 8, 4, 0, Source::Client(&client));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let want: Vec<u8> = [4u16, 5].iter().flat_map(|k| bc1_solid(k * 1000)).collect();
    assert_eq!(c.get_compressed_tex_image(gl::TEXTURE_2D, 0), want);
    // Skips that are not whole blocks.
    c.pixel_storei(gl::UNPACK_SKIP_PIXELS, 2);
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 8, 4, 0, Source::Client(&client));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn queries_attachments_and_errors() {
    let mut c = ctx(1);
    let n = c.get_integerv(gl::NUM_COMPRESSED_TEXTURE_FORMATS)[0];
    let list = c.get_integerv(gl::COMPRESSED_TEXTURE_FORMATS);
    assert_eq!(list.len(), n as usize);
    assert!(list.contains(&(gl::COMPRESSED_RGBA_BPTC_UNORM as i32)));
    assert!(list.contains(&(gl::COMPRESSED_RGB8_ETC2 as i32)));

    let t = new_texture(&mut c, gl::TEXTURE_2D);
    let f = gl::COMPRESSED_RGBA_S3TC_DXT5_EXT;
    let b16 = [0u8; 16];
    // imageSize must match: 16 bytes for one DXT5 block.
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 4, 4, 0, Source::Client(&b16[..8]));
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Generic formats are not specific compressed formats.
    let g = gl::COMPRESSED_RGBA;
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, g, 4, 4, 0, Source::Client(&b16));
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // A border is INVALID_VALUE, as for every image.
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 4, 4, 1, Source::Client(&b16));
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let blocks = [0u8; 64];
    c.compressed_tex_image_2d(gl::TEXTURE_2D, 0, f, 8, 8, 0, Source::Client(&blocks));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let sub = |c: &mut Context, o: [i32; 2], s: [i32; 2], fmt: u32, data: &[u8]| {
        let which = (gl::TEXTURE_2D, None);
        let name = "glCompressedTexSubImage2D";
        c.compressed_sub_image_2d(name, which, 0, o, s, fmt, Source::Client(data));
        c.get_error()
    };
    assert_eq!(sub(&mut c, [2, 0], [4, 4], f, &b16), gl::INVALID_OPERATION);
    assert_eq!(sub(&mut c, [0, 0], [2, 4], f, &b16), gl::INVALID_OPERATION);
    assert_eq!(sub(&mut c, [4, 4], [8, 4], f, &b16), gl::INVALID_VALUE);
    let dxt3 = gl::COMPRESSED_RGBA_S3TC_DXT3_EXT;
    assert_eq!(
        sub(&mut c, [0, 0], [4, 4], dxt3, &b16),
        gl::INVALID_OPERATION
    );
    // Uncompressed sub-images into a compressed level cover whole blocks too.
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        1,
        0,
        4,
        4,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[0; 64],
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // glGetCompressedTexImage of an uncompressed level.
    new_texture(&mut c, gl::TEXTURE_2D);
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
    c.get_compressed_tex_image(gl::TEXTURE_2D, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, gl::TEXTURE_COMPRESSED_IMAGE_SIZE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // RGTC cannot make a 3D texture; BPTC can.
    new_texture(&mut c, gl::TEXTURE_3D);
    let r = gl::COMPRESSED_RED_RGTC1;
    c.compressed_tex_image_3d(
        gl::TEXTURE_3D,
        0,
        r,
        [4, 4, 1],
        0,
        Source::Client(&b16[..8]),
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.tex_storage_3d(gl::TEXTURE_3D, 1, r, 4, 4, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let bptc = gl::COMPRESSED_RGBA_BPTC_UNORM;
    c.compressed_tex_image_3d(
        gl::TEXTURE_3D,
        0,
        bptc,
        [4, 4, 2],
        0,
        Source::Client(&[0; 32]),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // A compressed level is not colour-renderable.
    let fb = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fb);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT
    );
}
