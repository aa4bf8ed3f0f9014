//! The one entry path (api/dispatch.rs) seen from outside: errors name the GL command the
//! application called, through the Rust API and through a C entry point looked up with
//! `softgl::get_proc_address`; and the share group's objects reach Rust callers.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, ContextAttribs, Surface};

fn context(share: Option<&Context>) -> Context {
    let attribs = ContextAttribs {
        debug: true,
        ..ContextAttribs::default()
    };
    let mut c = Context::with_attribs(&attribs, share).expect("1.0 debug context");
    c.set_default_surface(Some(&Surface::new(4, 4, true).expect("surface")));
    c
}

/// A complete 2×2 texture (GL_NEAREST, no mipmaps needed).
fn texture(c: &mut Context) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[255u8; 16]),
    );
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// The one error message of the last call, as the debug log has it.
fn only_message(c: &mut Context) -> String {
    let msgs = c.debug_messages();
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    let m = &msgs[0];
    assert_eq!(m.source, gl::DEBUG_SOURCE_API);
    assert_eq!(m.ty, gl::DEBUG_TYPE_ERROR);
    assert_eq!(m.severity, gl::DEBUG_SEVERITY_HIGH);
    assert_eq!(m.id, c.get_error(), "the message id is the error code");
    m.message.clone()
}

#[test]
fn rust_api_errors_name_the_command() {
    let mut c = context(None);
    c.debug_messages();
    c.make_texture_handle_resident_arb(0x1234_5678);
    assert_eq!(
        only_message(&mut c),
        "glMakeTextureHandleResidentARB: GL_INVALID_OPERATION: not a texture handle"
    );
    assert_eq!(c.get_texture_handle_arb(77), 0, "a failed call returns 0");
    assert_eq!(
        only_message(&mut c),
        "glGetTextureHandleARB: GL_INVALID_VALUE: not an existing texture object"
    );
}

#[test]
fn c_entry_point_errors_name_the_command() {
    let shared = Arc::new(Mutex::new(context(None)));
    shared.lock().unwrap().debug_messages();
    make_current(Some(shared.clone()));
    let p = get_proc_address("glMakeTextureHandleResidentARB");
    assert!(!p.is_null());
    // SAFETY: glMakeTextureHandleResidentARB's C signature (void (GLuint64)).
    let resident: extern "system" fn(u64) =
        unsafe { std::mem::transmute::<*const c_void, extern "system" fn(u64)>(p) };
    resident(0x1234_5678);
    let p = get_proc_address("glEnable");
    // SAFETY: glEnable's C signature (void (GLenum)).
    let enable: extern "system" fn(u32) =
        unsafe { std::mem::transmute::<*const c_void, extern "system" fn(u32)>(p) };
    make_current(None);
    let mut c = shared.lock().unwrap();
    let msgs = c.debug_messages();
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert_eq!(
        msgs[0].message,
        "glMakeTextureHandleResidentARB: GL_INVALID_OPERATION: not a texture handle"
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    drop(c);
    make_current(Some(shared.clone()));
    enable(0x1234);
    make_current(None);
    let mut c = shared.lock().unwrap();
    let msgs = c.debug_messages();
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert_eq!(
        msgs[0].message,
        "glEnable: GL_INVALID_ENUM: capability not supported 0x1234"
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Refused enums are named by their GL names (issue #10 item 3).
    c.depth_func(gl::TEXTURE_2D);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::RGBA, t);
    c.blend_func(gl::ONE, gl::DEPTH_TEST);
    let texts: Vec<String> = c.debug_messages().into_iter().map(|m| m.message).collect();
    assert_eq!(
        texts,
        [
            "glDepthFunc: GL_INVALID_ENUM: depth function GL_TEXTURE_2D",
            "glBindTexture: GL_INVALID_ENUM: texture target (GL_TEXTURE_1D, _2D, _3D, _1D_ARRAY, \
             _2D_ARRAY, _RECTANGLE, _CUBE_MAP, _CUBE_MAP_ARRAY, _BUFFER, \
             _2D_MULTISAMPLE(_ARRAY)) GL_RGBA",
            "glBlendFunc: GL_INVALID_ENUM: blend factor GL_DEPTH_TEST",
        ]
    );
}

/// A texture made in one context gets its bindless handle in another of its group through
/// the Rust API: the dispatcher checked the group's objects out for the call.
#[test]
fn rust_callers_see_the_share_group() {
    let mut a = context(None);
    let mut b = context(Some(&a));
    let t = texture(&mut a);
    let h = b.get_texture_handle_arb(t);
    assert_eq!(b.get_error(), gl::NO_ERROR);
    assert_ne!(h, 0);
    assert_eq!(
        a.get_texture_handle_arb(t),
        h,
        "one handle per texture in the group"
    );
    b.make_texture_handle_resident_arb(h);
    assert!(b.is_texture_handle_resident_arb(h));
    assert!(
        !a.is_texture_handle_resident_arb(h),
        "residency is per context"
    );
    assert_eq!(a.get_error(), gl::NO_ERROR);
    assert_eq!(b.get_error(), gl::NO_ERROR);
}
