//! softgl's EGL driver: `libEGL_softgl.so.0`, a libglvnd EGL vendor library, so that any
//! program linked against libglvnd's `libEGL.so.1` and `libOpenGL.so.0` (or `libGL.so.1`)
//! renders with softgl, unchanged.
//!
//! libglvnd loads the library named by a vendor JSON file (`softgl.json`; the build writes
//! `softgl_egl.json` with an absolute path beside the built library) and calls its one
//! exported symbol, [`__egl_Main`], which fills libglvnd's vendor interface
//! (`glvnd/libeglabi.h`). Everything else is reached through that interface: `egl*`
//! functions through `getProcAddress`, GL functions too (libGLdispatch asks the vendor for
//! each `gl*` name and gets `softgl::get_proc_address`'s entry points, which act on the
//! thread's current `softgl` context).
//!
//! | module | owns |
//! |---|---|
//! | [`glvnd`] | the `#[repr(C)]` vendor ABI tables |
//! | [`entry`] | the EGL 1.5 functions and the vendor callbacks |
//! | [`device`] | softgl as an EGL device (EGL_EXT_device_base, EGL_EXT_platform_device) |
//! | [`dispatch`] | the dispatch stubs of extension functions libEGL does not know |
//! | [`state`] | the display, surfaces, contexts, per-thread current context and error |
//! | [`config`] | the configs and eglChooseConfig's matching and sorting |
//! | [`consts`] | EGL constants |
//!
//! What EGL offers: EGL 1.5 with EGL_MESA_platform_surfaceless, one EGL device
//! (EGL_EXT_device_base, EGL_MESA_device_software) and EGL_EXT_platform_device (the device
//! platform, the surfaceless one and the default display are one display), pbuffers, OpenGL
//! contexts (EGL_KHR_create_context, EGL_KHR_no_config_context,
//! EGL_KHR_surfaceless_context), robust contexts (EGL 1.5's attributes and
//! EGL_EXT_create_context_robustness: robust access, LOSE_CONTEXT_ON_RESET, which a shader
//! that runs out of its loop budget triggers), fence syncs (EGL 1.5, EGL_KHR_fence_sync,
//! EGL_KHR_wait_sync). Not offered: OpenGL ES, window and pixmap surfaces, EGLImage.

// `unsafe` is this crate's job (DESIGN.md §2: the C driver); each block says why it holds.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
// The extern "C" functions are called by libEGL with the contracts EGL's specification
// states; they are `unsafe` for Rust callers and documented by the spec sections cited.
#![allow(clippy::missing_safety_doc)]
// libglvnd's naming (libEGL_<vendor>.so) makes the library name EGL_softgl.
#![allow(non_snake_case)]

pub mod config;
pub mod consts;
pub mod device;
pub mod dispatch;
pub mod entry;
pub mod glvnd;
pub mod state;

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicPtr, Ordering};

use consts::{EGLBoolean, EGLint};
use glvnd::{ApiExports, ApiImports};

/// libEGL's export table, kept for `getCurrentApi` (null until `__egl_Main`).
static EXPORTS: AtomicPtr<ApiExports> = AtomicPtr::new(std::ptr::null_mut());

/// libEGL's export table, once `__egl_Main` has run.
pub(crate) fn exports() -> Option<&'static ApiExports> {
    let exports = EXPORTS.load(Ordering::Acquire);
    // SAFETY: null, or libEGL's static export table, which outlives its vendor libraries.
    unsafe { exports.as_ref() }
}

/// The current rendering API according to libEGL, if libEGL is there to ask.
pub(crate) fn exports_current_api() -> Option<EGLint> {
    let exports = EXPORTS.load(Ordering::Acquire);
    if exports.is_null() {
        return None;
    }
    // SAFETY: libEGL passed a pointer to its static export table, which lives as long as
    // libEGL, and libEGL outlives its vendor libraries.
    let get = unsafe { (*exports).get_current_api }?;
    // SAFETY: a libEGL function with no preconditions.
    Some(unsafe { get() } as EGLint)
}

/// libglvnd's entry point (`__EGL_MAIN_PROTO_NAME`): checks the ABI version and fills
/// `imports` with this vendor's callbacks.
///
/// # Safety
/// Called by libEGL with valid `exports` and `imports` pointers.
#[no_mangle]
pub unsafe extern "C" fn __egl_Main(
    version: u32,
    exports: *const ApiExports,
    _vendor: *mut c_void,
    imports: *mut ApiImports,
) -> EGLBoolean {
    // A vendor must refuse an ABI of another major version (libeglabi.h).
    if version >> 16 != glvnd::ABI_MAJOR || exports.is_null() || imports.is_null() {
        return consts::FALSE;
    }
    EXPORTS.store(exports as *mut ApiExports, Ordering::Release);
    // SAFETY: libEGL passes a zeroed, writable imports table it owns.
    let imports = unsafe { &mut *imports };
    imports.get_platform_display = Some(entry::get_platform_display);
    imports.get_supports_api = Some(entry::get_supports_api);
    imports.get_vendor_string = Some(entry::get_vendor_string);
    imports.get_proc_address = Some(get_proc_address);
    imports.get_dispatch_address = Some(entry::get_dispatch_address);
    imports.set_dispatch_index = Some(entry::set_dispatch_index);
    imports.find_native_display_platform = Some(entry::find_native_display_platform);
    // Entry-point patching is an optional optimisation; left out (null).
    consts::TRUE
}

/// `getProcAddress`: the EGL functions below, and every GL function softgl implements
/// (`softgl::get_proc_address`); null for anything else.
unsafe extern "C" fn get_proc_address(name: *const c_char) -> *mut c_void {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: libEGL passes a NUL-terminated function name.
    let Ok(name) = unsafe { CStr::from_ptr(name) }.to_str() else {
        return std::ptr::null_mut();
    };
    std::panic::catch_unwind(|| lookup(name)).unwrap_or(std::ptr::null_mut())
}

pub(crate) fn lookup(name: &str) -> *mut c_void {
    if name.starts_with("gl") {
        return softgl::get_proc_address(name) as *mut c_void;
    }
    use entry::*;
    let f: *mut c_void = match name {
        "eglBindTexImage" => bind_tex_image as *mut c_void,
        "eglChooseConfig" => choose_config as *mut c_void,
        "eglCopyBuffers" => copy_buffers as *mut c_void,
        "eglCreateContext" => create_context as *mut c_void,
        "eglCreatePbufferFromClientBuffer" => create_pbuffer_from_client_buffer as *mut c_void,
        "eglCreatePbufferSurface" => create_pbuffer_surface as *mut c_void,
        "eglCreatePixmapSurface" => create_pixmap_surface as *mut c_void,
        "eglCreatePlatformPixmapSurface" => create_platform_pixmap_surface as *mut c_void,
        "eglCreatePlatformWindowSurface" => create_platform_window_surface as *mut c_void,
        "eglCreateWindowSurface" => create_window_surface as *mut c_void,
        "eglDestroyContext" => destroy_context as *mut c_void,
        "eglDestroySurface" => destroy_surface as *mut c_void,
        "eglGetConfigAttrib" => get_config_attrib as *mut c_void,
        "eglGetConfigs" => get_configs as *mut c_void,
        "eglGetError" => get_error as *mut c_void,
        "eglInitialize" => initialize as *mut c_void,
        "eglMakeCurrent" => make_current as *mut c_void,
        "eglQueryContext" => query_context as *mut c_void,
        "eglQueryString" => query_string as *mut c_void,
        "eglQuerySurface" => query_surface as *mut c_void,
        // eglReleaseTexImage has eglBindTexImage's checks and outcome (EGL_BAD_MATCH).
        "eglReleaseTexImage" => bind_tex_image as *mut c_void,
        "eglReleaseThread" => release_thread as *mut c_void,
        "eglSurfaceAttrib" => surface_attrib as *mut c_void,
        "eglSwapBuffers" => swap_buffers as *mut c_void,
        "eglSwapInterval" => swap_interval as *mut c_void,
        "eglTerminate" => terminate as *mut c_void,
        "eglWaitClient" => wait_client as *mut c_void,
        "eglWaitGL" => wait_gl as *mut c_void,
        "eglWaitNative" => wait_native as *mut c_void,
        // EGL 1.5 core fence syncs (libglvnd dispatches these by display).
        "eglCreateSync" => create_sync as *mut c_void,
        "eglDestroySync" => destroy_sync as *mut c_void,
        "eglClientWaitSync" => client_wait_sync as *mut c_void,
        "eglWaitSync" => wait_sync as *mut c_void,
        "eglGetSyncAttrib" => get_sync_attrib as *mut c_void,
        // EGL_KHR_fence_sync / EGL_KHR_wait_sync: reached through the stubs of
        // `dispatch` (libEGL has none of its own).
        "eglCreateSyncKHR" => create_sync_khr as *mut c_void,
        "eglDestroySyncKHR" => destroy_sync as *mut c_void,
        "eglClientWaitSyncKHR" => client_wait_sync as *mut c_void,
        "eglGetSyncAttribKHR" => get_sync_attrib_khr as *mut c_void,
        "eglWaitSyncKHR" => wait_sync_khr as *mut c_void,
        // Devices: libEGL calls eglQueryDevicesEXT and eglQueryDisplayAttribEXT itself (the
        // latter by any of its three names); the other two go through `dispatch`'s stubs.
        "eglQueryDevicesEXT" => device::query_devices as *mut c_void,
        "eglQueryDisplayAttribEXT" => device::query_display_attrib as *mut c_void,
        "eglQueryDeviceStringEXT" => device::query_device_string as *mut c_void,
        "eglQueryDeviceAttribEXT" => device::query_device_attrib as *mut c_void,
        _ => std::ptr::null_mut(),
    };
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_libglvnd_requires_is_there() {
        // libglvnd's LookupVendorEntrypoints refuses a vendor missing any of these.
        for name in [
            "eglInitialize",
            "eglChooseConfig",
            "eglCopyBuffers",
            "eglCreateContext",
            "eglCreatePbufferSurface",
            "eglCreatePixmapSurface",
            "eglCreateWindowSurface",
            "eglDestroyContext",
            "eglDestroySurface",
            "eglGetConfigAttrib",
            "eglGetConfigs",
            "eglMakeCurrent",
            "eglQueryContext",
            "eglQueryString",
            "eglQuerySurface",
            "eglSwapBuffers",
            "eglTerminate",
            "eglWaitGL",
            "eglWaitNative",
            "eglBindTexImage",
            "eglReleaseTexImage",
            "eglSurfaceAttrib",
            "eglSwapInterval",
            "eglCreatePbufferFromClientBuffer",
            "eglReleaseThread",
            "eglWaitClient",
            "eglGetError",
        ] {
            assert!(!lookup(name).is_null(), "{name} missing");
        }
        assert!(!lookup("eglCreateSync").is_null());
        // libEGL finds a device vendor's eglQueryDevicesEXT through getProcAddress.
        assert!(!lookup("eglQueryDevicesEXT").is_null());
        assert!(!lookup("eglCreateSyncKHR").is_null());
        assert!(lookup("eglNoSuchThing").is_null());
    }
}
