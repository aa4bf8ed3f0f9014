//! Image units through the Rust `Context` (GL 4.5 core §8.26): glBindImageTexture and
//! glBindImageTextures with their errors, the GL_IMAGE_BINDING_* queries, the initial
//! state, and units left when their texture is deleted. Shader access to images is not
//! implemented yet (GL_ARB_shader_image_load_store is unlisted).

use softgl::{enums as gl, Context};

fn texture(c: &mut Context, target: u32, format: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    match target {
        gl::TEXTURE_2D => c.tex_storage_2d(target, 2, format, 4, 4),
        _ => c.tex_storage_3d(target, 1, format, 4, 4, 3),
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

fn binding(c: &mut Context, unit: u32) -> [i32; 6] {
    [
        gl::IMAGE_BINDING_NAME,
        gl::IMAGE_BINDING_LEVEL,
        gl::IMAGE_BINDING_LAYERED,
        gl::IMAGE_BINDING_LAYER,
        gl::IMAGE_BINDING_ACCESS,
        gl::IMAGE_BINDING_FORMAT,
    ]
    .map(|p| c.get_integeri_v(p, unit)[0])
}

const INITIAL: [i32; 6] = [0, 0, 0, 0, gl::READ_ONLY as i32, gl::R8 as i32];

#[test]
fn bind_query_and_unbind() {
    let mut c = Context::new(4, 4);
    let max = c.get_integerv(gl::MAX_IMAGE_UNITS)[0];
    assert!(max >= 8, "GL 4.5 core table 23.64");
    for u in 0..max as u32 {
        assert_eq!(binding(&mut c, u), INITIAL, "unit {u}");
    }
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RGBA8);
    // The format need not be the texture's (compatibility is checked when shaders use it).
    c.bind_image_texture(3, t, 1, false, 0, gl::WRITE_ONLY, gl::R32UI);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        binding(&mut c, 3),
        [t as i32, 1, 0, 0, gl::WRITE_ONLY as i32, gl::R32UI as i32]
    );
    assert_eq!(c.get_booleani_v(gl::IMAGE_BINDING_LAYERED, 3), [false]);
    let a = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA32F);
    c.bind_image_texture(0, a, 0, true, 2, gl::READ_WRITE, gl::RGBA32F);
    assert_eq!(c.get_booleani_v(gl::IMAGE_BINDING_LAYERED, 0), [true]);
    assert_eq!(c.get_integeri_v(gl::IMAGE_BINDING_LAYER, 0), [2]);
    // Texture 0 resets the unit; deleting a texture leaves the units it was bound to.
    c.bind_image_texture(0, 0, 0, false, 0, gl::READ_ONLY, gl::R8);
    assert_eq!(binding(&mut c, 0), INITIAL);
    c.delete_textures(&[t]);
    assert_eq!(binding(&mut c, 3), INITIAL);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// GL 4.5 core §8.26's errors; a failed call changes nothing.
#[test]
fn bind_image_texture_errors() {
    let mut c = Context::new(4, 4);
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RGBA8);
    let max = c.get_integerv(gl::MAX_IMAGE_UNITS)[0] as u32;
    let cases: [(u32, u32, i32, i32, u32, u32, u32); 6] = [
        (max, t, 0, 0, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (
            0,
            t + 100,
            0,
            0,
            gl::READ_ONLY,
            gl::RGBA8,
            gl::INVALID_VALUE,
        ),
        (0, t, -1, 0, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (0, t, 0, -1, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (0, t, 0, 0, gl::RGBA, gl::RGBA8, gl::INVALID_ENUM),
        (
            0,
            t,
            0,
            0,
            gl::READ_ONLY,
            gl::SRGB8_ALPHA8,
            gl::INVALID_VALUE,
        ),
    ];
    for (unit, tex, level, layer, access, format, err) in cases {
        c.bind_image_texture(unit, tex, level, false, layer, access, format);
        assert_eq!(
            c.get_error(),
            err,
            "{unit} {tex} {level} {layer} {access:#x} {format:#x}"
        );
        assert_eq!(binding(&mut c, 0), INITIAL);
    }
    c.get_integeri_v(gl::IMAGE_BINDING_NAME, max);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

/// glBindImageTextures (ARB_multi_bind): level 0, layered for layered targets, READ_WRITE,
/// level 0's format; a bad entry is skipped with INVALID_OPERATION, the others bind; a
/// null list unbinds.
#[test]
fn bind_image_textures() {
    let mut c = Context::new(4, 4);
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RG16F);
    let a = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::R32I);
    let srgb = texture(&mut c, gl::TEXTURE_2D, gl::SRGB8_ALPHA8);
    c.bind_image_textures(1, 4, Some(&[t, a, srgb, 0]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "sRGB has no image format"
    );
    let rw = gl::READ_WRITE as i32;
    assert_eq!(
        binding(&mut c, 1),
        [t as i32, 0, 0, 0, rw, gl::RG16F as i32]
    );
    assert_eq!(binding(&mut c, 2), [a as i32, 0, 1, 0, rw, gl::R32I as i32]);
    assert_eq!(binding(&mut c, 3), INITIAL);
    assert_eq!(binding(&mut c, 4), INITIAL);
    c.bind_image_textures(7, 2, Some(&[t, t]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "past GL_MAX_IMAGE_UNITS"
    );
    c.bind_image_textures(0, 3, None);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for u in 0..3 {
        assert_eq!(binding(&mut c, u), INITIAL);
    }
}

#[test]
fn the_commands_have_c_entry_points() {
    let missing: Vec<&str> = softgl::missing_entry_points().iter().map(|m| m.0).collect();
    for name in ["glBindImageTexture", "glBindImageTextures"] {
        assert!(!softgl::get_proc_address(name).is_null(), "{name}");
        assert!(!missing.contains(&name), "{name} is listed as missing");
    }
}
