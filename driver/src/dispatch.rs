//! Dispatch stubs: what `eglGetProcAddress` returns for the EGL extension functions libEGL
//! has no entry point of its own for.
//!
//! libglvnd's libEGL implements the EGL 1.5 functions and a few extension functions itself
//! (eglQueryDevicesEXT, eglQueryDisplayAttribEXT, eglGetPlatformDisplayEXT, EGL_KHR_debug)
//! and sends them to the vendor owning the display. For any other `egl*` name its
//! `eglGetProcAddress` asks each vendor's `getDispatchAddress` in turn and hands the
//! application the first stub it gets, whichever vendor that came from; it then gives the
//! name a dispatch index and tells every vendor (`setDispatchIndex`). So a stub must serve
//! every vendor's objects: at each call it asks libEGL which vendor owns the display (or
//! device) argument, fetches that vendor's function for the index (`fetchDispatchEntry`,
//! which calls the vendor's `getProcAddress`, i.e. [`crate::lookup`] for softgl), records
//! the vendor for eglGetError (`setLastVendor`), and calls it. An unknown handle sets
//! EGL_BAD_DISPLAY or EGL_BAD_DEVICE_EXT in libEGL and returns the failure value.

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};

use crate::consts as egl;
use crate::consts::{EGLAttrib, EGLBoolean, EGLenum, EGLint};
use crate::glvnd::{ApiExports, VendorInfo};

type Handle = *mut c_void;

/// The functions with a stub here, in [`NAMES`] order.
#[derive(Copy, Clone)]
enum Func {
    QueryDeviceString,
    QueryDeviceAttrib,
    CreateSyncKhr,
    DestroySyncKhr,
    ClientWaitSyncKhr,
    GetSyncAttribKhr,
    WaitSyncKhr,
}

const NAMES: [&str; 7] = [
    "eglQueryDeviceStringEXT",
    "eglQueryDeviceAttribEXT",
    "eglCreateSyncKHR",
    "eglDestroySyncKHR",
    "eglClientWaitSyncKHR",
    "eglGetSyncAttribKHR",
    "eglWaitSyncKHR",
];

/// The dispatch index libEGL gave each name (-1: none yet).
static INDICES: [AtomicI32; NAMES.len()] = [const { AtomicI32::new(-1) }; NAMES.len()];

/// `getDispatchAddress`: the stub for `name`, or null.
pub fn stub_address(name: &str) -> *mut c_void {
    let f: *mut c_void = match name {
        "eglQueryDeviceStringEXT" => query_device_string as *mut c_void,
        "eglQueryDeviceAttribEXT" => query_device_attrib as *mut c_void,
        "eglCreateSyncKHR" => create_sync_khr as *mut c_void,
        "eglDestroySyncKHR" => destroy_sync_khr as *mut c_void,
        "eglClientWaitSyncKHR" => client_wait_sync_khr as *mut c_void,
        "eglGetSyncAttribKHR" => get_sync_attrib_khr as *mut c_void,
        "eglWaitSyncKHR" => wait_sync_khr as *mut c_void,
        _ => std::ptr::null_mut(),
    };
    f
}

/// `setDispatchIndex`: libEGL also announces the indices of its own functions; those names
/// are not here and are ignored.
pub fn set_index(name: &str, index: c_int) {
    if let Some(i) = NAMES.iter().position(|n| *n == name) {
        INDICES[i].store(index, Ordering::Release);
    }
}

/// What a stub selects its vendor by.
enum Owner {
    Display(Handle),
    Device(Handle),
}

/// The owning vendor's implementation of `func`, or None after setting libEGL's error.
fn fetch(func: Func, owner: Owner) -> Option<*const c_void> {
    let exports: &ApiExports = crate::exports()?;
    let index = INDICES[func as usize].load(Ordering::Acquire);
    // SAFETY: every call below is to libEGL's export functions, valid for libEGL's
    // lifetime, with the handles the application passed (libEGL only looks them up).
    unsafe {
        if let Some(init) = exports.thread_init {
            init();
        }
        let (vendor, error): (*mut VendorInfo, EGLint) = match owner {
            Owner::Display(dpy) => (
                exports
                    .get_vendor_from_display
                    .map_or(std::ptr::null_mut(), |f| f(dpy)),
                egl::BAD_DISPLAY,
            ),
            Owner::Device(dev) => (
                exports
                    .get_vendor_from_device
                    .map_or(std::ptr::null_mut(), |f| f(dev)),
                egl::BAD_DEVICE_EXT,
            ),
        };
        let f = match exports.fetch_dispatch_entry {
            Some(fetch) if !vendor.is_null() && index >= 0 => fetch(vendor, index),
            _ => std::ptr::null(),
        };
        if f.is_null() {
            if let Some(set_error) = exports.set_egl_error {
                set_error(error);
            }
            return None;
        }
        // eglGetError asks the last vendor called for its error.
        if exports.set_last_vendor.is_some_and(|set| set(vendor) == 0) {
            return None;
        }
        Some(f)
    }
}

// Each stub: fetch, cast to the function's own type (the vendor's `getProcAddress` gave a
// function of exactly this signature for this name), call.

unsafe extern "C" fn query_device_string(dev: Handle, name: EGLint) -> *const c_char {
    type F = unsafe extern "C" fn(Handle, EGLint) -> *const c_char;
    match fetch(Func::QueryDeviceString, Owner::Device(dev)) {
        // SAFETY: see above; the arguments are the application's, passed on.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dev, name) },
        None => std::ptr::null(),
    }
}

unsafe extern "C" fn query_device_attrib(
    dev: Handle,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    type F = unsafe extern "C" fn(Handle, EGLint, *mut EGLAttrib) -> EGLBoolean;
    match fetch(Func::QueryDeviceAttrib, Owner::Device(dev)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dev, attribute, value) },
        None => egl::FALSE,
    }
}

unsafe extern "C" fn create_sync_khr(dpy: Handle, kind: EGLenum, attribs: *const EGLint) -> Handle {
    type F = unsafe extern "C" fn(Handle, EGLenum, *const EGLint) -> Handle;
    match fetch(Func::CreateSyncKhr, Owner::Display(dpy)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy, kind, attribs) },
        None => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn destroy_sync_khr(dpy: Handle, sync: Handle) -> EGLBoolean {
    type F = unsafe extern "C" fn(Handle, Handle) -> EGLBoolean;
    match fetch(Func::DestroySyncKhr, Owner::Display(dpy)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy, sync) },
        None => egl::FALSE,
    }
}

unsafe extern "C" fn client_wait_sync_khr(
    dpy: Handle,
    sync: Handle,
    flags: EGLint,
    timeout: u64,
) -> EGLint {
    type F = unsafe extern "C" fn(Handle, Handle, EGLint, u64) -> EGLint;
    match fetch(Func::ClientWaitSyncKhr, Owner::Display(dpy)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy, sync, flags, timeout) },
        None => egl::FALSE as EGLint,
    }
}

unsafe extern "C" fn get_sync_attrib_khr(
    dpy: Handle,
    sync: Handle,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    type F = unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> EGLBoolean;
    match fetch(Func::GetSyncAttribKhr, Owner::Display(dpy)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe {
            std::mem::transmute::<*const c_void, F>(f)(dpy, sync, attribute, value)
        },
        None => egl::FALSE,
    }
}

unsafe extern "C" fn wait_sync_khr(dpy: Handle, sync: Handle, flags: EGLint) -> EGLint {
    type F = unsafe extern "C" fn(Handle, Handle, EGLint) -> EGLint;
    match fetch(Func::WaitSyncKhr, Owner::Display(dpy)) {
        // SAFETY: as in `query_device_string`.
        Some(f) => unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy, sync, flags) },
        None => egl::FALSE as EGLint,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stub_has_an_implementation_and_an_index_slot() {
        for name in NAMES {
            assert!(!stub_address(name).is_null(), "{name}: no stub");
            // The vendor's getProcAddress must give the real function behind each stub
            // (fetchDispatchEntry asks for it by name).
            assert!(!crate::lookup(name).is_null(), "{name}: no implementation");
            assert_ne!(stub_address(name), crate::lookup(name), "{name}");
        }
        // libEGL's own functions get no stub: libEGL dispatches them itself.
        for name in [
            "eglQueryDevicesEXT",
            "eglCreateSync",
            "eglGetPlatformDisplayEXT",
        ] {
            assert!(stub_address(name).is_null(), "{name}");
        }
        set_index("eglWaitSyncKHR", 42);
        set_index("eglChooseConfig", 7);
        assert_eq!(
            INDICES[Func::WaitSyncKhr as usize].load(Ordering::Acquire),
            42
        );
    }

    #[test]
    fn without_libegl_a_stub_fails_cleanly() {
        // No __egl_Main in a unit test: no exports, so no vendor; the stub returns its
        // failure value instead of calling through a null pointer.
        // SAFETY: the handle is only passed to the (absent) lookup.
        let s = unsafe { query_device_string(crate::device::device_handle(), egl::EXTENSIONS) };
        assert!(s.is_null());
    }
}
