//! Cube faces, 3D slices and array layers as framebuffer attachments (GL 4.5 core §9.2.8
//! glFramebufferTexture*, §9.4 completeness, §9.8 layered framebuffers), end to end through
//! the Rust `Context`: draws, clears, glReadPixels, glBlitFramebuffer and glCopyTexSubImage
//! reach exactly the chosen layer of the chosen level and no other; a layered attachment
//! (glFramebufferTexture) is drawn at layer 0 and cleared at every layer;
//! glGetFramebufferAttachmentParameteriv reports level, layer, face and layering; the DSA
//! forms; the errors and completeness rules; images identical at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
}";

const FS: &str = "#version 330
uniform vec4 col;
out vec4 color;
void main() {
    color = col;
}";

const W: i32 = 4;
const C0: u32 = gl::COLOR_ATTACHMENT0;

/// A context with a framebuffer object bound and the flat-colour program in use.
fn setup(threads: usize) -> (Context, u32) {
    let mut c = common::context(8, 8, threads);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    (c, p)
}

/// Fills the whole draw framebuffer with `rgba` (a draw, not a clear).
fn fill(c: &mut Context, p: u32, rgba: [u8; 4]) {
    let loc = c.get_uniform_location(p, "col");
    let f = rgba.map(|v| f32::from(v) / 255.0);
    c.uniform_4f(loc, f[0], f[1], f[2], f[3]);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn clear(c: &mut Context, rgba: [u8; 4]) {
    let f = rgba.map(|v| f32::from(v) / 255.0);
    c.clear_color(f[0], f[1], f[2], f[3]);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn read(c: &mut Context, w: i32, h: i32) -> Vec<u8> {
    let v = c.read_pixels(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    v
}

fn solid(rgba: [u8; 4], texels: usize) -> Vec<u8> {
    rgba.repeat(texels)
}

fn colour(i: u32) -> [u8; 4] {
    [
        (40 * i + 10) as u8,
        (200 - 30 * i) as u8,
        (17 * i) as u8,
        255,
    ]
}

fn status(c: &mut Context) -> u32 {
    c.check_framebuffer_status(gl::FRAMEBUFFER)
}

/// A `W`×`W` RGBA8 texture of `target` with `layers` layers (6 faces for a cube) and two
/// levels, every texel zero.
fn texture(c: &mut Context, target: u32, layers: i32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    if target == gl::TEXTURE_CUBE_MAP {
        c.tex_storage_2d(target, 2, gl::RGBA8, W, W);
    } else {
        c.tex_storage_3d(target, 2, gl::RGBA8, W, W, layers);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// glGetTexImage of `level`: every layer (or face `face` of a cube).
fn level_bytes(c: &mut Context, target: u32, level: i32) -> Vec<u8> {
    let v = c.get_tex_image(target, level, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    v
}

#[test]
fn each_face_slice_and_layer_is_drawn_alone() {
    let (mut c, p) = setup(1);
    let texels = (W * W) as usize;
    // Cube faces, by glFramebufferTexture2D and by glFramebufferTextureLayer (face = layer).
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP, 6);
    for face in 0..6u32 {
        if face % 2 == 0 {
            c.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                C0,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X + face,
                cube,
                0,
            );
        } else {
            c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, cube, 0, face as i32);
        }
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE, "face {face}");
        fill(&mut c, p, colour(face));
        assert_eq!(read(&mut c, W, W), solid(colour(face), texels));
    }
    for face in 0..6u32 {
        let got = level_bytes(&mut c, gl::TEXTURE_CUBE_MAP_POSITIVE_X + face, 0);
        assert_eq!(got, solid(colour(face), texels), "face {face}");
        // Level 1 untouched.
        let got = level_bytes(&mut c, gl::TEXTURE_CUBE_MAP_POSITIVE_X + face, 1);
        assert_eq!(got, vec![0; 16]);
    }

    // 3D slices of level 1 (2×2×2: depth halves too) and
    // level 0 (4 slices), by glFramebufferTexture3D and glFramebufferTextureLayer.
    let vol = texture(&mut c, gl::TEXTURE_3D, 4);
    for z in [2, 0, 3] {
        if z == 3 {
            c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, vol, 0, z);
        } else {
            c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 0, z);
        }
        assert_eq!(c.get_error(), gl::NO_ERROR);
        clear(&mut c, colour(z as u32));
    }
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 1, 0);
    fill(&mut c, p, colour(5));
    let mut want = Vec::new();
    for z in 0..4 {
        want.extend(if z == 1 {
            vec![0; texels * 4]
        } else {
            solid(colour(z), texels)
        });
    }
    assert_eq!(level_bytes(&mut c, gl::TEXTURE_3D, 0), want);
    let mut want = solid(colour(5), 4);
    want.extend([0; 16]);
    assert_eq!(level_bytes(&mut c, gl::TEXTURE_3D, 1), want);
    // Slice 2 of level 1 does not exist: the attachment is incomplete.
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 1, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);

    // 2D array layers (the array keeps its layer count at every level).
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 3);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 1, 2);
    fill(&mut c, p, colour(4));
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, 1);
    fill(&mut c, p, colour(3));
    let mut want = vec![0; texels * 4];
    want.extend(solid(colour(3), texels));
    want.extend(vec![0; texels * 4]);
    assert_eq!(level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 0), want);
    let mut want = vec![0; 2 * 16];
    want.extend(solid(colour(4), 4));
    assert_eq!(level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 1), want);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, 3);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
}

/// A 2D array of depth and a 2D array of colour, layer 1 of each: the depth test reads and
/// writes that layer only.
#[test]
fn depth_layers_are_tested_and_written_alone() {
    let (mut c, p) = setup(1);
    let col = texture(&mut c, gl::TEXTURE_2D_ARRAY, 2);
    let d = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, d);
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::DEPTH_COMPONENT32F, W, W, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, col, 0, 1);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, d, 0, 1);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    c.enable(gl::DEPTH_TEST);
    c.clear_depth(0.25);
    c.clear(gl::DEPTH_BUFFER_BIT);
    // The quad's depth is 0.75 (z 0.5): behind the cleared 0.25, so nothing is drawn.
    fill(&mut c, p, colour(1));
    assert_eq!(read(&mut c, W, W), vec![0; 64]);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, d, 0, 0);
    c.clear_depth(1.0);
    c.clear(gl::DEPTH_BUFFER_BIT);
    fill(&mut c, p, colour(2));
    assert_eq!(read(&mut c, W, W), solid(colour(2), 16));
    let depths = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::DEPTH_COMPONENT, gl::FLOAT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let depths: Vec<f32> = depths
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert!(depths[..16].iter().all(|&z| z == 0.75), "{depths:?}");
    assert!(depths[16..].iter().all(|&z| z == 0.25), "{depths:?}");
}

#[test]
fn layered_attachments_draw_layer_zero_and_clear_every_layer() {
    let (mut c, p) = setup(1);
    let texels = (W * W) as usize;
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 3);
    c.framebuffer_texture(gl::FRAMEBUFFER, C0, arr, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    let q = |c: &mut Context, pname| {
        c.get_framebuffer_attachment_parameteriv(gl::FRAMEBUFFER, C0, pname)
    };
    assert_eq!(q(&mut c, gl::FRAMEBUFFER_ATTACHMENT_LAYERED), 1);
    clear(&mut c, colour(1));
    fill(&mut c, p, colour(2));
    // A scissored clear reaches every layer too, inside the box only.
    c.enable(gl::SCISSOR_TEST);
    c.scissor(0, 0, 1, 1);
    clear(&mut c, colour(3));
    c.disable(gl::SCISSOR_TEST);
    let got = level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 0);
    let mut want = solid(colour(2), texels);
    want.extend(solid(colour(1), texels));
    want.extend(solid(colour(1), texels));
    for l in 0..3 {
        want[l * texels * 4..][..4].copy_from_slice(&colour(3));
    }
    assert_eq!(got, want);
    // ReadPixels reads layer 0.
    assert_eq!(read(&mut c, W, W), want[..texels * 4]);

    // glClearBufferfv of one draw buffer: every layer of that buffer, no other buffer.
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP, 6);
    c.framebuffer_texture(gl::FRAMEBUFFER, C0 + 1, cube, 1);
    // Layered colour attachments of two targets (2D array and cube).
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    let arr2 = texture(&mut c, gl::TEXTURE_2D_ARRAY, 6);
    c.framebuffer_texture(gl::FRAMEBUFFER, C0 + 1, arr2, 1);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    c.draw_buffers(&[C0, C0 + 1]);
    c.clear_bufferfv(gl::COLOR, 1, &[1.0, 0.0, 1.0, 1.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 1),
        solid([255, 0, 255, 255], 6 * 4)
    );
    c.bind_texture(gl::TEXTURE_2D_ARRAY, arr);
    assert_eq!(
        level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 0),
        want,
        "buffer 0 untouched"
    );

    // A whole cube map: all six faces cleared (the framebuffer's size is the smaller level).
    c.framebuffer_texture(gl::FRAMEBUFFER, C0 + 1, 0, 0);
    c.framebuffer_texture(gl::FRAMEBUFFER, C0, cube, 1);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    clear(&mut c, colour(4));
    for face in 0..6 {
        let got = level_bytes(&mut c, gl::TEXTURE_CUBE_MAP_POSITIVE_X + face, 1);
        assert_eq!(got, solid(colour(4), 4), "face {face}");
        let got = level_bytes(&mut c, gl::TEXTURE_CUBE_MAP_POSITIVE_X + face, 0);
        assert_eq!(got, vec![0; texels * 4], "face {face} level 0");
    }

    // Layered and non-layered attachments together.
    let d = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, d);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH_COMPONENT24, 2, 2);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, d);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    // A 2D texture through glFramebufferTexture is not layered.
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2);
    c.framebuffer_texture(gl::FRAMEBUFFER, C0, t2, 0);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    assert_eq!(q(&mut c, gl::FRAMEBUFFER_ATTACHMENT_LAYERED), 0);
}

#[test]
fn attachment_queries_report_level_layer_face_and_layering() {
    let (mut c, _) = setup(1);
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP, 6);
    let vol = texture(&mut c, gl::TEXTURE_3D, 4);
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 3);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    let q = |c: &mut Context, a, pname| {
        let v = c.get_framebuffer_attachment_parameteriv(gl::FRAMEBUFFER, a, pname);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        v
    };
    use gl::{
        FRAMEBUFFER_ATTACHMENT_LAYERED as LAYERED, FRAMEBUFFER_ATTACHMENT_OBJECT_NAME as NAME,
        FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE as FACE,
        FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER as LAYER,
        FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL as LEVEL,
    };
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        C0,
        gl::TEXTURE_CUBE_MAP_NEGATIVE_Y,
        cube,
        1,
    );
    assert_eq!(q(&mut c, C0, FACE), gl::TEXTURE_CUBE_MAP_NEGATIVE_Y as i32);
    assert_eq!(q(&mut c, C0, LAYER), 0);
    assert_eq!(q(&mut c, C0, LEVEL), 1);
    assert_eq!(q(&mut c, C0, LAYERED), 0);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, cube, 0, 4);
    assert_eq!(q(&mut c, C0, FACE), gl::TEXTURE_CUBE_MAP_POSITIVE_Z as i32);
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0 + 2, gl::TEXTURE_3D, vol, 0, 3);
    assert_eq!(q(&mut c, C0 + 2, LAYER), 3);
    assert_eq!(q(&mut c, C0 + 2, FACE), gl::NONE as i32);
    assert_eq!(q(&mut c, C0 + 2, NAME), vol as i32);
    // DSA forms on a framebuffer that is not bound.
    let g = c.create_framebuffers(1)[0];
    c.named_framebuffer_texture_layer(g, C0 + 1, arr, 1, 2);
    c.named_framebuffer_texture(g, C0, arr, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let nq = |c: &mut Context, a, pname| {
        let v = c.get_named_framebuffer_attachment_parameteriv(g, a, pname);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        v
    };
    assert_eq!(nq(&mut c, C0 + 1, LAYER), 2);
    assert_eq!(nq(&mut c, C0 + 1, LEVEL), 1);
    assert_eq!(nq(&mut c, C0 + 1, LAYERED), 0);
    assert_eq!(nq(&mut c, C0, LAYERED), 1);
    assert_eq!(
        c.check_named_framebuffer_status(g, gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS
    );
    c.named_framebuffer_texture_layer(g, C0 + 1, 0, 0, 0);
    assert_eq!(
        c.check_named_framebuffer_status(g, gl::DRAW_FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4);
    c.named_framebuffer_renderbuffer(g, C0 + 3, gl::RENDERBUFFER, rb);
    assert_eq!(nq(&mut c, C0 + 3, NAME), rb as i32);
    // Layer, face and layering are texture questions (§9.2.3).
    c.get_named_framebuffer_attachment_parameteriv(g, C0 + 3, LAYERED);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Framebuffer 0 is the default framebuffer for the query, not for attaching.
    assert_eq!(
        c.get_named_framebuffer_attachment_parameteriv(
            0,
            gl::BACK_LEFT,
            gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE
        ),
        gl::FRAMEBUFFER_DEFAULT as i32
    );
    c.named_framebuffer_texture(0, C0, arr, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.named_framebuffer_texture_layer(9999, C0, arr, 0, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.check_named_framebuffer_status(g, gl::TEXTURE_2D);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

#[test]
fn attaching_refuses_what_the_spec_refuses() {
    let (mut c, _) = setup(1);
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP, 6);
    let vol = texture(&mut c, gl::TEXTURE_3D, 4);
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 3);
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
    let err = |c: &mut Context| c.get_error();
    // A cube map through TEXTURE_2D, a face target on a 2D texture, a cube through 3D.
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, C0, gl::TEXTURE_2D, cube, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, C0, gl::TEXTURE_CUBE_MAP_POSITIVE_X, t2, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, C0, gl::TEXTURE_CUBE_MAP, cube, 0);
    assert_eq!(
        err(&mut c),
        gl::INVALID_ENUM,
        "the cube target itself is no textarget"
    );
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 0);
    assert_eq!(err(&mut c), gl::INVALID_ENUM);
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, arr, 0, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 0, -1);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 0, 2048);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    // Layers: a 2D texture has none; past the limits; a cube has six.
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, t2, 0, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, 2048);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, cube, 0, 6);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, -1, 0);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0 + 8, arr, 0, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::BACK, arr, 0);
    assert_eq!(err(&mut c), gl::INVALID_ENUM);
    // A generated name that was never bound is not a texture yet.
    let unbound = c.gen_textures(1)[0];
    c.framebuffer_texture(gl::FRAMEBUFFER, C0, unbound, 0);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    // Nothing above attached anything.
    assert_eq!(
        status(&mut c),
        gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    );
    // Texture 0 detaches, whatever the other arguments.
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, 1);
    assert_eq!(status(&mut c), gl::FRAMEBUFFER_COMPLETE);
    c.framebuffer_texture_3d(gl::FRAMEBUFFER, C0, gl::TEXTURE_2D, 0, 0, -5);
    assert_eq!(err(&mut c), gl::NO_ERROR);
    assert_eq!(
        status(&mut c),
        gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    );
}

/// Blits and copies between layers: from a cube face into a 3D slice, from one array layer
/// into another of the same texture, glCopyTexSubImage2D from a 3D slice into a 2D texture.
#[test]
fn blits_and_copies_reach_the_chosen_layers() {
    let (mut c, p) = setup(1);
    let texels = (W * W) as usize;
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP, 6);
    let vol = texture(&mut c, gl::TEXTURE_3D, 4);
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 3);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        C0,
        gl::TEXTURE_CUBE_MAP_POSITIVE_Z,
        cube,
        0,
    );
    fill(&mut c, p, colour(1));
    let g = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, g);
    c.framebuffer_texture_layer(gl::DRAW_FRAMEBUFFER, C0, vol, 0, 2);
    c.blit_framebuffer(0, 0, W, W, 0, 0, W, W, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let mut want = vec![0; 2 * texels * 4];
    want.extend(solid(colour(1), texels));
    want.extend(vec![0; texels * 4]);
    c.bind_texture(gl::TEXTURE_3D, vol);
    assert_eq!(level_bytes(&mut c, gl::TEXTURE_3D, 0), want);

    // Layer 0 → layer 2 of one array texture: the same storage, different layers.
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, g);
    c.framebuffer_texture_layer(gl::READ_FRAMEBUFFER, C0, arr, 0, 0);
    let f2 = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, f2);
    c.framebuffer_texture_layer(gl::DRAW_FRAMEBUFFER, C0, arr, 0, 0);
    fill(&mut c, p, colour(2));
    c.framebuffer_texture_layer(gl::DRAW_FRAMEBUFFER, C0, arr, 0, 2);
    c.blit_framebuffer(0, 0, 2, 2, 2, 2, 4, 4, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D_ARRAY, arr);
    let got = level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 0);
    assert_eq!(got[..texels * 4], solid(colour(2), texels));
    assert_eq!(got[texels * 4..texels * 8], vec![0; texels * 4]);
    for y in 0..4 {
        for x in 0..4 {
            let t = &got[(2 * texels + y * 4 + x) * 4..][..4];
            let want = if x >= 2 && y >= 2 { colour(2) } else { [0; 4] };
            assert_eq!(t, want, "layer 2 ({x}, {y})");
        }
    }

    // glCopyTexSubImage2D from slice 2 of the 3D texture (read framebuffer) into a 2D one.
    c.framebuffer_texture_3d(gl::READ_FRAMEBUFFER, C0, gl::TEXTURE_3D, vol, 0, 2);
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, W, W);
    c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, [0, 0], [0, 0, W, W]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        level_bytes(&mut c, gl::TEXTURE_2D, 0),
        solid(colour(1), texels)
    );
    // … and into face −X of the cube with glCopyTextureSubImage3D (face as z).
    c.copy_texture_sub_image_3d(cube, 0, [0, 0, 1], [0, 0, W, W]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_CUBE_MAP, cube);
    let got = level_bytes(&mut c, gl::TEXTURE_CUBE_MAP_NEGATIVE_X, 0);
    assert_eq!(got, solid(colour(1), texels));
}

/// The same drawing into faces, slices and layers (clears, draws, a layered clear) at 1 and
/// 2 threads: identical texture contents.
#[test]
fn layers_are_identical_at_one_and_two_threads() {
    let run = |threads| {
        let (mut c, p) = setup(threads);
        let n = 70;
        let arr = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D_ARRAY, arr);
        c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, n, n, 3);
        c.framebuffer_texture(gl::FRAMEBUFFER, C0, arr, 0);
        c.viewport(0, 0, n, n);
        clear(&mut c, colour(1));
        for l in 0..3 {
            c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, l);
            c.enable(gl::SCISSOR_TEST);
            c.scissor(l * 9, 3, 60, 50 + l);
            fill(&mut c, p, colour(l as u32 + 2));
            c.disable(gl::SCISSOR_TEST);
        }
        level_bytes(&mut c, gl::TEXTURE_2D_ARRAY, 0)
    };
    let one = run(1);
    assert_eq!(one, run(2));
    // The scissored draws landed in their own layer.
    let at = |l: usize, x: usize, y: usize| &one[((l * 70 + y) * 70 + x) * 4..][..4];
    assert_eq!(at(0, 0, 3), colour(2));
    assert_eq!(at(1, 0, 3), colour(1));
    assert_eq!(at(1, 9, 3), colour(3));
    assert_eq!(at(2, 69, 69), colour(1));
    assert_eq!(at(2, 20, 53), colour(4));
}

/// glDrawBuffer and the DSA draw/read buffer commands pick the layers cleared and read.
#[test]
fn draw_and_read_buffer_commands_pick_layers() {
    let (mut c, _) = setup(1);
    let arr = texture(&mut c, gl::TEXTURE_2D_ARRAY, 2);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0, arr, 0, 0);
    c.framebuffer_texture_layer(gl::FRAMEBUFFER, C0 + 1, arr, 0, 1);
    c.draw_buffer(C0 + 1);
    clear(&mut c, colour(1));
    let f = c.get_integerv(gl::DRAW_FRAMEBUFFER_BINDING)[0] as u32;
    c.named_framebuffer_read_buffer(f, C0 + 1);
    assert_eq!(read(&mut c, W, W), solid(colour(1), 16));
    c.named_framebuffer_read_buffer(f, C0);
    assert_eq!(read(&mut c, W, W), vec![0; 64]);
    c.named_framebuffer_draw_buffers(f, &[gl::NONE, C0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    clear(&mut c, colour(2));
    assert_eq!(read(&mut c, W, W), solid(colour(2), 16));
    c.named_framebuffer_draw_buffer(f, gl::BACK);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_buffer(gl::COLOR_ATTACHMENT0 + 8);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.named_framebuffer_draw_buffer(0, gl::BACK);
    c.named_framebuffer_read_buffer(0, gl::BACK);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.named_framebuffer_read_buffer(f + 40, C0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}
