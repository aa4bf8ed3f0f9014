//! libglvnd's EGL vendor ABI (`glvnd/libeglabi.h`, ABI version 0.2): the two function
//! tables `__egl_Main` exchanges with libEGL, as `#[repr(C)]` structs field for field.
//!
//! The layouts mirror the C header exactly (same order, one pointer per field); a wrong
//! order would make libEGL call the wrong function, so the order is checked against the
//! header's comments in `lib.rs` tests by size.

use std::ffi::{c_char, c_int, c_void};

use crate::consts::{EGLAttrib, EGLBoolean, EGLenum, EGLint};

/// `EGL_VENDOR_ABI_MAJOR_VERSION`: libEGL refuses vendors of another major version, and a
/// vendor must refuse a libEGL of another major version.
pub const ABI_MAJOR: u32 = 0;

/// `__EGL_VENDOR_STRING_PLATFORM_EXTENSIONS`, the one `getVendorString` name.
pub const VENDOR_STRING_PLATFORM_EXTENSIONS: c_int = 0;

/// Opaque `__EGLvendorInfo *`.
pub type VendorInfo = c_void;

/// `__EGLapiExports`: what libEGL offers the vendor. Only `getCurrentApi` is used (EGL 1.5
/// §3.7: eglCreateContext makes a context of the *current rendering API*, which libEGL
/// tracks itself: libglvnd answers eglBindAPI/eglQueryAPI without the vendor).
#[repr(C)]
pub struct ApiExports {
    pub thread_init: Option<unsafe extern "C" fn()>,
    pub get_current_api: Option<unsafe extern "C" fn() -> EGLenum>,
    pub get_current_vendor: Option<unsafe extern "C" fn() -> *mut VendorInfo>,
    pub get_current_context: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub get_current_display: Option<unsafe extern "C" fn() -> *mut c_void>,
    pub get_current_surface: Option<unsafe extern "C" fn(EGLint) -> *mut c_void>,
    pub fetch_dispatch_entry: Option<unsafe extern "C" fn(*mut VendorInfo, c_int) -> *const c_void>,
    pub set_egl_error: Option<unsafe extern "C" fn(EGLint)>,
    pub set_last_vendor: Option<unsafe extern "C" fn(*mut VendorInfo) -> EGLBoolean>,
    pub get_vendor_from_display: Option<unsafe extern "C" fn(*mut c_void) -> *mut VendorInfo>,
    pub get_vendor_from_device: Option<unsafe extern "C" fn(*mut c_void) -> *mut VendorInfo>,
    pub set_vendor_for_device:
        Option<unsafe extern "C" fn(*mut c_void, *mut VendorInfo) -> EGLBoolean>,
}

/// `DispatchPatchLookupStubOffset` (libGLdispatch): only named by the patch callbacks,
/// which this vendor leaves null (they are an optional optimisation).
pub type LookupStubOffset =
    Option<unsafe extern "C" fn(*const c_char, *mut *mut c_void, *mut *const c_void) -> u8>;

/// `__EGLapiImports`: what the vendor offers libEGL. libEGL requires getPlatformDisplay,
/// getSupportsAPI, getProcAddress, getDispatchAddress and setDispatchIndex; the rest may
/// stay null.
#[repr(C)]
pub struct ApiImports {
    pub get_platform_display:
        Option<unsafe extern "C" fn(EGLenum, *mut c_void, *const EGLAttrib) -> *mut c_void>,
    pub get_supports_api: Option<unsafe extern "C" fn(EGLenum) -> EGLBoolean>,
    pub get_vendor_string: Option<unsafe extern "C" fn(c_int) -> *const c_char>,
    pub get_proc_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub get_dispatch_address: Option<unsafe extern "C" fn(*const c_char) -> *mut c_void>,
    pub set_dispatch_index: Option<unsafe extern "C" fn(*const c_char, c_int)>,
    pub is_patch_supported: Option<unsafe extern "C" fn(c_int, c_int) -> u8>,
    pub initiate_patch: Option<unsafe extern "C" fn(c_int, c_int, LookupStubOffset) -> u8>,
    pub release_patch: Option<unsafe extern "C" fn()>,
    pub patch_thread_attach: Option<unsafe extern "C" fn()>,
    pub find_native_display_platform: Option<unsafe extern "C" fn(*mut c_void) -> EGLenum>,
}

// The C structs are arrays of pointers: 12 in the exports (ABI 0.2 added
// setVendorForDevice), 11 in the imports.
const _: () = assert!(std::mem::size_of::<ApiExports>() == 12 * std::mem::size_of::<usize>());
const _: () = assert!(std::mem::size_of::<ApiImports>() == 11 * std::mem::size_of::<usize>());
