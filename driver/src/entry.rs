//! The EGL 1.5 functions libEGL dispatches to this vendor (found through `getProcAddress`,
//! never exported as symbols: libglvnd's libEGL owns the `egl*` names).
//!
//! Every function runs its body through [`guard`]: the body returns `Ok(value)` or
//! `Err(EGL error code)`, the guard records the thread's error (EGL_SUCCESS on success,
//! EGL 1.5 §3.1) and catches any panic, which becomes EGL_BAD_ALLOC and the function's
//! failure value, so no Rust panic unwinds into C.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use softgl::{ContextAttribs, ContextError, Profile, Surface};

use crate::config::{self, Config, CONFIGS, MAX_PBUFFER_SIDE};
use crate::consts as egl;
use crate::consts::{EGLAttrib, EGLBoolean, EGLenum, EGLint};
use crate::state::{self, display_handle, lock_context, ContextRec, State, SurfaceRec};

type Handle = *mut c_void;

/// Runs `body`, the EGL function `name`, sets the thread's EGL error from its outcome, and
/// turns a panic into EGL_BAD_ALLOC: a bug in softgl must not unwind through libEGL's C
/// frames.
///
/// With `SOFTGL_DEBUG=egl` every failing call is logged to stderr naming the function, the
/// error and, where the body gave one with [`why`], the reason:
/// `softgl egl: eglCreateContext: EGL_BAD_MATCH: GL 4.6 is above what softgl supports …`.
pub fn guard<R>(name: &'static str, fail: R, body: impl FnOnce() -> Result<R, EGLint>) -> R {
    let _ = WHY.try_with(|w| w.borrow_mut().take());
    let code = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => {
            state::set_error(egl::SUCCESS);
            return value;
        }
        Ok(Err(code)) => code,
        Err(_) => {
            let _ = WHY.try_with(|w| *w.borrow_mut() = Some("internal error (a panic)".into()));
            egl::BAD_ALLOC
        }
    };
    state::set_error(code);
    if debug_egl() {
        eprintln!("{}", message(name, code));
    }
    fail
}

thread_local! {
    /// The reason of the error the running EGL function is about to return ([`why`]).
    static WHY: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// `code`, remembering `reason` for the `SOFTGL_DEBUG=egl` line of the failing call (only
/// kept when that output is on).
pub fn why(code: EGLint, reason: impl Into<String>) -> EGLint {
    if debug_egl() {
        let _ = WHY.try_with(|w| *w.borrow_mut() = Some(reason.into()));
    }
    code
}

/// The `SOFTGL_DEBUG=egl` line of a failed call of `name` with `code`.
fn message(name: &str, code: EGLint) -> String {
    let reason = WHY.try_with(|w| w.borrow_mut().take()).ok().flatten();
    let code = match egl::error_name(code) {
        Some(n) => n.to_string(),
        None => format!("0x{code:04X}"),
    };
    match reason {
        Some(r) => format!("softgl egl: {name}: {code}: {r}"),
        None => format!("softgl egl: {name}: {code}"),
    }
}

/// Whether `SOFTGL_DEBUG` names `egl` (read once).
fn debug_egl() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("SOFTGL_DEBUG").is_ok_and(|v| v.split(',').any(|s| s.trim() == "egl"))
    })
}

/// Longest attribute list read (pairs) before giving up with EGL_BAD_ATTRIBUTE: the lists
/// EGL defines hold a few dozen entries, so a longer one is a missing EGL_NONE.
const MAX_ATTRIB_PAIRS: usize = 1024;

/// Reads an EGL_NONE-terminated `EGLint` attribute list (null: empty).
///
/// # Safety
/// `list` is null or points to name/value pairs ending in EGL_NONE (EGL 1.5 §3.4.1).
unsafe fn read_attribs(list: *const EGLint) -> Result<Vec<(EGLint, EGLint)>, EGLint> {
    let mut out = Vec::new();
    if list.is_null() {
        return Ok(out);
    }
    for i in 0..MAX_ATTRIB_PAIRS {
        // SAFETY: the caller guarantees the list runs up to its EGL_NONE, and we stop there.
        let name = unsafe { *list.add(2 * i) };
        if name == egl::NONE {
            return Ok(out);
        }
        // SAFETY: a name other than EGL_NONE is followed by its value.
        let value = unsafe { *list.add(2 * i + 1) };
        out.push((name, value));
    }
    Err(why(
        egl::BAD_ATTRIBUTE,
        format!("attribute list has no EGL_NONE within {MAX_ATTRIB_PAIRS} pairs"),
    ))
}

/// As [`read_attribs`] for an `EGLAttrib` list (eglGetPlatformDisplay).
///
/// # Safety
/// As for [`read_attribs`].
unsafe fn read_attribs_wide(list: *const EGLAttrib) -> Result<Vec<(EGLAttrib, EGLAttrib)>, EGLint> {
    let mut out = Vec::new();
    if list.is_null() {
        return Ok(out);
    }
    for i in 0..MAX_ATTRIB_PAIRS {
        // SAFETY: as in `read_attribs`.
        let name = unsafe { *list.add(2 * i) };
        if name == egl::NONE as EGLAttrib {
            return Ok(out);
        }
        // SAFETY: as in `read_attribs`.
        let value = unsafe { *list.add(2 * i + 1) };
        out.push((name, value));
    }
    Err(why(
        egl::BAD_ATTRIBUTE,
        format!("attribute list has no EGL_NONE within {MAX_ATTRIB_PAIRS} pairs"),
    ))
}

/// Stores `value` through an out-pointer the application passed.
///
/// # Safety
/// `ptr` is null (EGL_BAD_PARAMETER) or valid for one write.
unsafe fn store<T>(ptr: *mut T, value: T) -> Result<(), EGLint> {
    if ptr.is_null() {
        return Err(why(egl::BAD_PARAMETER, "the value pointer is null"));
    }
    // SAFETY: non-null, and the caller passes a pointer to writable storage (EGL API).
    unsafe { ptr.write(value) };
    Ok(())
}

/// The state, if `dpy` is softgl's display and it is initialized (EGL 1.5 §3.2).
pub(crate) fn initialized(dpy: Handle) -> Result<std::sync::MutexGuard<'static, State>, EGLint> {
    if dpy != display_handle() {
        return Err(why(egl::BAD_DISPLAY, "not a display of softgl"));
    }
    let st = state::lock();
    if !st.initialized {
        return Err(why(
            egl::NOT_INITIALIZED,
            "the display is not initialized (eglInitialize)",
        ));
    }
    Ok(st)
}

fn config_of(handle: Handle) -> Result<Config, EGLint> {
    config::config_by_handle(handle as usize).ok_or_else(|| {
        why(
            egl::BAD_CONFIG,
            format!("{handle:p} is not a config of softgl"),
        )
    })
}

fn config_handle(c: &Config) -> Handle {
    c.id as usize as Handle
}

// ---- libglvnd vendor callbacks -------------------------------------------------------

/// `getPlatformDisplay`: the default display (platform EGL_NONE),
/// EGL_PLATFORM_SURFACELESS_MESA, whose native display must be EGL_DEFAULT_DISPLAY
/// (EGL_MESA_platform_surfaceless), and EGL_PLATFORM_DEVICE_EXT, whose native display must
/// be softgl's device (EGL_EXT_platform_device; libEGL sends a device handle only to the
/// vendor that listed it, and EGL_DEFAULT_DISPLAY to every vendor). All three are the same
/// display.
pub unsafe extern "C" fn get_platform_display(
    platform: EGLenum,
    native: *mut c_void,
    attribs: *const EGLAttrib,
) -> Handle {
    guard("eglGetPlatformDisplay", std::ptr::null_mut(), || {
        match platform as EGLint {
            egl::NONE | egl::PLATFORM_SURFACELESS_MESA => {
                if !native.is_null() {
                    return Err(why(
                        egl::BAD_PARAMETER,
                        "the surfaceless platform's native display must be EGL_DEFAULT_DISPLAY",
                    ));
                }
            }
            egl::PLATFORM_DEVICE_EXT => {
                if native != crate::device::device_handle() {
                    return Err(why(
                        egl::BAD_PARAMETER,
                        format!("{native:p} is not softgl's EGL device"),
                    ));
                }
            }
            _ => {
                return Err(why(
                    egl::BAD_PARAMETER,
                    format!(
                        "platform {} is not one softgl offers (surfaceless, device)",
                        egl::name(platform as EGLint)
                    ),
                ))
            }
        }
        // SAFETY: libEGL passes the application's EGL_NONE-terminated list through.
        let list = unsafe { read_attribs_wide(attribs)? };
        if !list.is_empty() {
            // Neither platform defines display attributes softgl could honour (the device
            // platform's EGL_DRM_MASTER_FD_EXT is for DRM devices).
            return Err(why(
                egl::BAD_ATTRIBUTE,
                format!(
                    "display attribute {} is not one softgl has (it takes none)",
                    egl::name(list[0].0 as EGLint)
                ),
            ));
        }
        Ok(display_handle())
    })
}

/// `getSupportsAPI`: OpenGL only; libEGL refuses eglBindAPI(EGL_OPENGL_ES_API) with
/// EGL_BAD_PARAMETER when no vendor supports ES.
pub unsafe extern "C" fn get_supports_api(api: EGLenum) -> EGLBoolean {
    (api as EGLint == egl::OPENGL_API) as EGLBoolean
}

/// The platform extensions (`getVendorString`): libEGL adds them to the client extension
/// string as they are (the client extensions proper it intersects with its own list).
pub const PLATFORM_EXTENSIONS: &CStr = c"EGL_EXT_platform_device EGL_MESA_platform_surfaceless";

/// `getVendorString`: the platform extensions, which libEGL adds to the client extension
/// string.
pub unsafe extern "C" fn get_vendor_string(name: std::ffi::c_int) -> *const c_char {
    if name == crate::glvnd::VENDOR_STRING_PLATFORM_EXTENSIONS {
        PLATFORM_EXTENSIONS.as_ptr()
    } else {
        std::ptr::null()
    }
}

/// `getDispatchAddress`: the dispatch stub of an EGL extension function libEGL has none
/// for (`crate::dispatch`); null for others.
pub unsafe extern "C" fn get_dispatch_address(name: *const c_char) -> *mut c_void {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: libEGL passes a NUL-terminated function name.
    let name = unsafe { CStr::from_ptr(name) };
    name.to_str()
        .map_or(std::ptr::null_mut(), crate::dispatch::stub_address)
}

/// `setDispatchIndex`: the index libEGL gave an extension function, which its stub needs
/// to fetch the right vendor's function.
pub unsafe extern "C" fn set_dispatch_index(name: *const c_char, index: std::ffi::c_int) {
    if name.is_null() {
        return;
    }
    // SAFETY: libEGL passes a NUL-terminated function name.
    if let Ok(name) = unsafe { CStr::from_ptr(name) }.to_str() {
        crate::dispatch::set_index(name, index);
    }
}

/// `findNativeDisplayPlatform`: softgl has no native displays, so it identifies none.
pub unsafe extern "C" fn find_native_display_platform(_native: *mut c_void) -> EGLenum {
    egl::NONE as EGLenum
}

// ---- EGL 1.5 §3.1, §3.2: errors, initialization, strings -----------------------------

pub unsafe extern "C" fn get_error() -> EGLint {
    state::take_error()
}

pub unsafe extern "C" fn initialize(
    dpy: Handle,
    major: *mut EGLint,
    minor: *mut EGLint,
) -> EGLBoolean {
    guard("eglInitialize", egl::FALSE, || {
        if dpy != display_handle() {
            return Err(why(egl::BAD_DISPLAY, "not a display of softgl"));
        }
        state::lock().initialized = true;
        // SAFETY: null or the application's out-parameters (both optional in EGL 1.5).
        unsafe {
            if !major.is_null() {
                major.write(1);
            }
            if !minor.is_null() {
                minor.write(5);
            }
        }
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn terminate(dpy: Handle) -> EGLBoolean {
    guard("eglTerminate", egl::FALSE, || {
        if dpy != display_handle() {
            return Err(why(egl::BAD_DISPLAY, "not a display of softgl"));
        }
        // EGL 1.5 §3.2: terminating a terminated display is allowed and does nothing. There
        // is no reference count (that is EGL_KHR_display_reference, not offered).
        state::lock().terminate();
        Ok(egl::TRUE)
    })
}

static VERSION: &CStr = {
    // "1.5 <vendor-specific>" (EGL 1.5 §3.3).
    match CStr::from_bytes_with_nul(
        concat!("1.5 softgl ", env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(s) => s,
        Err(_) => c"1.5 softgl",
    }
};

/// The display extensions: only what is implemented.
const DISPLAY_EXTENSIONS: &CStr = c"EGL_EXT_create_context_robustness EGL_KHR_create_context \
EGL_KHR_fence_sync EGL_KHR_no_config_context EGL_KHR_surfaceless_context EGL_KHR_wait_sync";

/// The client extensions (eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)), which answer
/// before any display exists. libEGL unions every vendor's string, keeps what it supports
/// itself, and adds its own (EGL_EXT_client_extensions, EGL_KHR_debug,
/// EGL_KHR_client_get_all_proc_addresses) and the platform extensions; it counts a vendor
/// as a device vendor (asks it for devices) only if this string or the platform string names
/// EGL_EXT_device_base or EGL_EXT_device_enumeration. Without libEGL (a direct caller) this
/// string is the whole answer, so it names the platforms too.
const CLIENT_EXTENSIONS: &CStr = c"EGL_EXT_client_extensions EGL_EXT_device_base \
EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_platform_base EGL_EXT_platform_device \
EGL_MESA_platform_surfaceless";

pub unsafe extern "C" fn query_string(dpy: Handle, name: EGLint) -> *const c_char {
    guard("eglQueryString", std::ptr::null(), || {
        if dpy.is_null() {
            return match name {
                egl::EXTENSIONS => Ok(CLIENT_EXTENSIONS.as_ptr()),
                egl::VERSION => Ok(VERSION.as_ptr()),
                _ => Err(why(
                    egl::BAD_DISPLAY,
                    format!("{} needs a display (only EGL_EXTENSIONS and EGL_VERSION answer for EGL_NO_DISPLAY)", egl::name(name)),
                )),
            };
        }
        let _st = initialized(dpy)?;
        match name {
            egl::VENDOR => Ok(c"softgl".as_ptr()),
            egl::VERSION => Ok(VERSION.as_ptr()),
            egl::CLIENT_APIS => Ok(c"OpenGL".as_ptr()),
            egl::EXTENSIONS => Ok(DISPLAY_EXTENSIONS.as_ptr()),
            _ => Err(why(
                egl::BAD_PARAMETER,
                format!("{} is not a string eglQueryString knows", egl::name(name)),
            )),
        }
    })
}

// ---- EGL 1.5 §3.4: configurations ----------------------------------------------------

pub unsafe extern "C" fn get_configs(
    dpy: Handle,
    configs: *mut Handle,
    size: EGLint,
    num: *mut EGLint,
) -> EGLBoolean {
    guard("eglGetConfigs", egl::FALSE, || {
        let _st = initialized(dpy)?;
        // SAFETY: the application's out-pointers and array of `size` entries (EGL 1.5
        // §3.4.1: with a null array only the count is returned).
        unsafe { write_configs(&CONFIGS, configs, size, num)? };
        Ok(egl::TRUE)
    })
}

/// # Safety
/// `configs` is null or holds `size` writable handles; `num` is null or writable.
unsafe fn write_configs(
    list: &[Config],
    configs: *mut Handle,
    size: EGLint,
    num: *mut EGLint,
) -> Result<(), EGLint> {
    if num.is_null() {
        return Err(why(egl::BAD_PARAMETER, "num_config is null"));
    }
    let n = if configs.is_null() {
        list.len()
    } else {
        list.len().min(size.max(0) as usize)
    };
    if !configs.is_null() {
        for (i, c) in list.iter().take(n).enumerate() {
            // SAFETY: i < n <= size, the array's length (caller contract).
            unsafe { configs.add(i).write(config_handle(c)) };
        }
    }
    // SAFETY: checked non-null; the caller's out-parameter.
    unsafe { num.write(n as EGLint) };
    Ok(())
}

pub unsafe extern "C" fn choose_config(
    dpy: Handle,
    attribs: *const EGLint,
    configs: *mut Handle,
    size: EGLint,
    num: *mut EGLint,
) -> EGLBoolean {
    guard("eglChooseConfig", egl::FALSE, || {
        let _st = initialized(dpy)?;
        // SAFETY: the application's EGL_NONE-terminated list.
        let list = unsafe { read_attribs(attribs)? };
        let chosen = config::choose(&list)?;
        // SAFETY: as in get_configs.
        unsafe { write_configs(&chosen, configs, size, num)? };
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn get_config_attrib(
    dpy: Handle,
    config: Handle,
    attrib: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard("eglGetConfigAttrib", egl::FALSE, || {
        let _st = initialized(dpy)?;
        let c = config_of(config)?;
        let v = c.attrib(attrib).ok_or_else(|| {
            why(
                egl::BAD_ATTRIBUTE,
                format!("{} is not a config attribute", egl::name(attrib)),
            )
        })?;
        // SAFETY: the application's out-parameter.
        unsafe { store(value, v)? };
        Ok(egl::TRUE)
    })
}

// ---- EGL 1.5 §3.5: surfaces ----------------------------------------------------------

/// Window and pixmap surfaces: softgl's configs have neither bit in EGL_SURFACE_TYPE, so
/// EGL 1.5 §3.5.1/§3.5.4 make these EGL_BAD_MATCH once display and config are valid.
fn refuse_native_surface(name: &'static str, dpy: Handle, config: Handle) -> Handle {
    guard(name, std::ptr::null_mut(), || {
        let _st = initialized(dpy)?;
        config_of(config)?;
        Err(why(
            egl::BAD_MATCH,
            "softgl has no window or pixmap surfaces (it is headless): use a pbuffer or no surface",
        ))
    })
}

pub unsafe extern "C" fn create_window_surface(
    dpy: Handle,
    config: Handle,
    _win: usize,
    _attribs: *const EGLint,
) -> Handle {
    refuse_native_surface("eglCreateWindowSurface", dpy, config)
}

pub unsafe extern "C" fn create_platform_window_surface(
    dpy: Handle,
    config: Handle,
    _win: *mut c_void,
    _attribs: *const EGLAttrib,
) -> Handle {
    refuse_native_surface("eglCreatePlatformWindowSurface", dpy, config)
}

pub unsafe extern "C" fn create_pixmap_surface(
    dpy: Handle,
    config: Handle,
    _pixmap: usize,
    _attribs: *const EGLint,
) -> Handle {
    refuse_native_surface("eglCreatePixmapSurface", dpy, config)
}

pub unsafe extern "C" fn create_platform_pixmap_surface(
    dpy: Handle,
    config: Handle,
    _pixmap: *mut c_void,
    _attribs: *const EGLAttrib,
) -> Handle {
    refuse_native_surface("eglCreatePlatformPixmapSurface", dpy, config)
}

pub unsafe extern "C" fn create_pbuffer_from_client_buffer(
    dpy: Handle,
    _buftype: EGLenum,
    _buffer: *mut c_void,
    config: Handle,
    _attribs: *const EGLint,
) -> Handle {
    guard(
        "eglCreatePbufferFromClientBuffer",
        std::ptr::null_mut(),
        || {
            let _st = initialized(dpy)?;
            config_of(config)?;
            // The only client buffer type EGL 1.5 defines is EGL_OPENVG_IMAGE, and softgl has
            // no OpenVG (§3.5.3: an unsupported buftype is EGL_BAD_PARAMETER).
            Err(why(
                egl::BAD_PARAMETER,
                "softgl has no OpenVG, so no client buffer type (EGL_OPENVG_IMAGE) is supported",
            ))
        },
    )
}

pub unsafe extern "C" fn create_pbuffer_surface(
    dpy: Handle,
    config: Handle,
    attribs: *const EGLint,
) -> Handle {
    guard("eglCreatePbufferSurface", std::ptr::null_mut(), || {
        let mut st = initialized(dpy)?;
        let config = config_of(config)?;
        // SAFETY: the application's EGL_NONE-terminated list.
        let list = unsafe { read_attribs(attribs)? };
        let (mut width, mut height, mut largest) = (0, 0, false);
        for (name, value) in list {
            match name {
                egl::WIDTH => width = value,
                egl::HEIGHT => height = value,
                egl::LARGEST_PBUFFER => largest = value != 0,
                // §3.5.2: texture attributes need a config that supports OpenGL ES
                // rendering (and binding to textures); softgl's configs do neither.
                egl::TEXTURE_FORMAT | egl::TEXTURE_TARGET => {
                    if value != egl::NO_TEXTURE {
                        return Err(why(
                            egl::BAD_ATTRIBUTE,
                            format!("{} {}: softgl's configs cannot be bound to textures (OpenGL ES only)", egl::name(name), egl::name(value)),
                        ));
                    }
                }
                egl::MIPMAP_TEXTURE => {
                    if value != egl::FALSE as EGLint {
                        return Err(why(
                            egl::BAD_ATTRIBUTE,
                            "EGL_MIPMAP_TEXTURE: softgl's configs cannot be bound to textures",
                        ));
                    }
                }
                // The default framebuffer is linear RGBA8: sRGB is not offered.
                egl::GL_COLORSPACE => {
                    if value != egl::GL_COLORSPACE_LINEAR {
                        return Err(why(
                            egl::BAD_MATCH,
                            format!(
                                "EGL_GL_COLORSPACE {}: pbuffers are linear RGBA8",
                                egl::name(value)
                            ),
                        ));
                    }
                }
                // OpenVG attributes are accepted and have no effect (no VG here).
                egl::VG_COLORSPACE | egl::VG_ALPHA_FORMAT => {}
                _ => {
                    return Err(why(
                        egl::BAD_ATTRIBUTE,
                        format!("{} is not a pbuffer attribute", egl::name(name)),
                    ))
                }
            }
        }
        if width < 0 || height < 0 {
            return Err(why(
                egl::BAD_PARAMETER,
                format!("negative size {width}x{height}"),
            ));
        }
        if width > MAX_PBUFFER_SIDE || height > MAX_PBUFFER_SIDE {
            if !largest {
                return Err(why(
                    egl::BAD_ALLOC,
                    format!("{width}x{height} is larger than softgl's largest pbuffer side {MAX_PBUFFER_SIDE} (EGL_LARGEST_PBUFFER clamps instead)"),
                ));
            }
            // EGL_LARGEST_PBUFFER: "the largest available pbuffer" when the request is too
            // large, keeping within the config's maximum.
            width = width.min(MAX_PBUFFER_SIDE);
            height = height.min(MAX_PBUFFER_SIDE);
        }
        let surface = Surface::new(width as u32, height as u32, config.has_depth_stencil())
            .map_err(|_| {
                why(
                    egl::BAD_ALLOC,
                    format!("out of memory for a {width}x{height} pbuffer"),
                )
            })?;
        let id = st.new_id();
        st.surfaces.insert(
            id,
            SurfaceRec {
                surface,
                config,
                width,
                height,
                largest,
                swap_behavior: egl::BUFFER_DESTROYED,
                doomed: false,
            },
        );
        Ok(id as Handle)
    })
}

pub unsafe extern "C" fn destroy_surface(dpy: Handle, surface: Handle) -> EGLBoolean {
    guard("eglDestroySurface", egl::FALSE, || {
        let mut st = initialized(dpy)?;
        st.surface(surface)?;
        let id = surface as usize;
        if let Some(s) = st.surfaces.get_mut(&id) {
            s.doomed = true;
        }
        // §3.5.6: freed now unless current to some context, then when it is released.
        st.collect();
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn query_surface(
    dpy: Handle,
    surface: Handle,
    attrib: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard("eglQuerySurface", egl::FALSE, || {
        let st = initialized(dpy)?;
        let s = st.surface(surface)?;
        let v = match attrib {
            egl::CONFIG_ID => s.config.id,
            egl::WIDTH => s.width,
            egl::HEIGHT => s.height,
            egl::LARGEST_PBUFFER => s.largest as EGLint,
            egl::TEXTURE_FORMAT | egl::TEXTURE_TARGET => egl::NO_TEXTURE,
            egl::MIPMAP_TEXTURE | egl::MIPMAP_LEVEL => 0,
            // §3.5.6: a pbuffer's EGL_RENDER_BUFFER is EGL_BACK_BUFFER.
            egl::RENDER_BUFFER => egl::BACK_BUFFER,
            egl::SWAP_BEHAVIOR => s.swap_behavior,
            egl::MULTISAMPLE_RESOLVE => egl::MULTISAMPLE_RESOLVE_DEFAULT,
            egl::HORIZONTAL_RESOLUTION | egl::VERTICAL_RESOLUTION | egl::PIXEL_ASPECT_RATIO => {
                egl::UNKNOWN
            }
            egl::GL_COLORSPACE => egl::GL_COLORSPACE_LINEAR,
            egl::VG_COLORSPACE => egl::VG_COLORSPACE_SRGB,
            egl::VG_ALPHA_FORMAT => egl::VG_ALPHA_FORMAT_NONPRE,
            _ => {
                return Err(why(
                    egl::BAD_ATTRIBUTE,
                    format!("{} is not a surface attribute", egl::name(attrib)),
                ))
            }
        };
        // SAFETY: the application's out-parameter.
        unsafe { store(value, v)? };
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn surface_attrib(
    dpy: Handle,
    surface: Handle,
    attrib: EGLint,
    value: EGLint,
) -> EGLBoolean {
    guard("eglSurfaceAttrib", egl::FALSE, || {
        let mut st = initialized(dpy)?;
        st.surface(surface)?;
        let id = surface as usize;
        match attrib {
            // No effect on a surface that is not a texture (§3.5.6).
            egl::MIPMAP_LEVEL => {}
            egl::SWAP_BEHAVIOR => match value {
                egl::BUFFER_DESTROYED => {
                    if let Some(s) = st.surfaces.get_mut(&id) {
                        s.swap_behavior = value;
                    }
                }
                // Needs EGL_SWAP_BEHAVIOR_PRESERVED_BIT in the config's surface type.
                egl::BUFFER_PRESERVED => return Err(why(
                    egl::BAD_MATCH,
                    "EGL_BUFFER_PRESERVED: softgl's configs lack EGL_SWAP_BEHAVIOR_PRESERVED_BIT",
                )),
                _ => {
                    return Err(why(
                        egl::BAD_PARAMETER,
                        format!("{} is not a swap behavior", egl::name(value)),
                    ))
                }
            },
            egl::MULTISAMPLE_RESOLVE => match value {
                egl::MULTISAMPLE_RESOLVE_DEFAULT => {}
                _ => {
                    return Err(why(
                        egl::BAD_MATCH,
                        format!(
                            "EGL_MULTISAMPLE_RESOLVE {}: softgl's configs are single-sampled",
                            egl::name(value)
                        ),
                    ))
                }
            },
            _ => {
                return Err(why(
                    egl::BAD_ATTRIBUTE,
                    format!(
                        "{} is not a surface attribute eglSurfaceAttrib sets",
                        egl::name(attrib)
                    ),
                ))
            }
        }
        Ok(egl::TRUE)
    })
}

/// eglBindTexImage / eglReleaseTexImage: softgl's pbuffers have EGL_TEXTURE_FORMAT
/// EGL_NO_TEXTURE, which §3.6.1 makes EGL_BAD_MATCH.
pub unsafe extern "C" fn bind_tex_image(
    dpy: Handle,
    surface: Handle,
    _buffer: EGLint,
) -> EGLBoolean {
    guard("eglBindTexImage", egl::FALSE, || {
        let st = initialized(dpy)?;
        st.surface(surface)?;
        Err(why(
            egl::BAD_MATCH,
            "softgl's pbuffers have EGL_TEXTURE_FORMAT EGL_NO_TEXTURE",
        ))
    })
}

/// eglCopyBuffers: softgl has no native pixmaps, so any pixmap is invalid (§3.9.2).
pub unsafe extern "C" fn copy_buffers(dpy: Handle, surface: Handle, _pixmap: usize) -> EGLBoolean {
    guard("eglCopyBuffers", egl::FALSE, || {
        let st = initialized(dpy)?;
        st.surface(surface)?;
        Err(why(egl::BAD_NATIVE_PIXMAP, "softgl has no native pixmaps"))
    })
}

// ---- EGL 1.5 §3.7: contexts ----------------------------------------------------------

/// Turns an eglCreateContext attribute list into softgl's attributes (EGL 1.5 §3.7.1.1,
/// EGL_KHR_create_context).
fn context_attribs(list: &[(EGLint, EGLint)]) -> Result<ContextAttribs, EGLint> {
    let (mut major, mut minor) = (1, 0);
    let mut profile_mask = egl::CONTEXT_OPENGL_CORE_PROFILE_BIT;
    let (mut debug, mut forward, mut robust, mut lose) = (false, false, false, false);
    for &(name, value) in list {
        match name {
            egl::CONTEXT_MAJOR_VERSION => major = value,
            egl::CONTEXT_MINOR_VERSION => minor = value,
            egl::CONTEXT_OPENGL_PROFILE_MASK => profile_mask = value,
            egl::CONTEXT_OPENGL_DEBUG => debug = value != 0,
            egl::CONTEXT_OPENGL_FORWARD_COMPATIBLE => forward = value != 0,
            // EGL_EXT_create_context_robustness's names for the same two attributes mean
            // the same (softgl's buffer accesses are always robust; the flag is reported in
            // GL_CONTEXT_FLAGS).
            egl::CONTEXT_OPENGL_ROBUST_ACCESS | egl::CONTEXT_OPENGL_ROBUST_ACCESS_EXT => {
                robust = value != 0
            }
            egl::CONTEXT_FLAGS_KHR => {
                let known = egl::CONTEXT_OPENGL_DEBUG_BIT_KHR
                    | egl::CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR
                    | egl::CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
                if value & !known != 0 {
                    return Err(why(
                        egl::BAD_ATTRIBUTE,
                        format!(
                            "EGL_CONTEXT_FLAGS_KHR has unknown bits 0x{:x}",
                            value & !known
                        ),
                    ));
                }
                debug = value & egl::CONTEXT_OPENGL_DEBUG_BIT_KHR != 0;
                forward = value & egl::CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR != 0;
                robust = value & egl::CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR != 0;
            }
            egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY
            | egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT => match value {
                egl::NO_RESET_NOTIFICATION => lose = false,
                // A shader that runs out of its loop budget resets the context
                // (softgl::api::robustness).
                egl::LOSE_CONTEXT_ON_RESET => lose = true,
                _ => {
                    return Err(why(
                        egl::BAD_ATTRIBUTE,
                        format!("{} is not a reset notification strategy", egl::name(value)),
                    ))
                }
            },
            _ => {
                return Err(why(
                    egl::BAD_ATTRIBUTE,
                    format!(
                        "{} is not a context attribute softgl knows",
                        egl::name(name)
                    ),
                ))
            }
        }
    }
    if major < 0 || minor < 0 {
        return Err(why(egl::BAD_MATCH, "negative context version"));
    }
    let (major, minor) = (major as u32, minor as u32);
    // Profiles exist from 3.2 on; below, the mask is ignored (§3.7.1.1).
    let profile = if (major, minor) >= (3, 2) {
        let known =
            egl::CONTEXT_OPENGL_CORE_PROFILE_BIT | egl::CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
        if profile_mask & !known != 0 || profile_mask & known == 0 {
            return Err(why(
                egl::BAD_MATCH,
                "unknown or empty EGL_CONTEXT_OPENGL_PROFILE_MASK",
            ));
        }
        if profile_mask & egl::CONTEXT_OPENGL_CORE_PROFILE_BIT != 0 {
            Profile::Core
        } else {
            Profile::Compatibility
        }
    } else {
        Profile::Compatibility
    };
    Ok(ContextAttribs {
        major,
        minor,
        profile,
        debug,
        forward_compatible: forward,
        robust_access: robust,
        lose_context_on_reset: lose,
    })
}

/// The current rendering API as libEGL tracks it (libglvnd answers eglBindAPI itself).
fn current_api() -> EGLint {
    crate::exports_current_api().unwrap_or(egl::OPENGL_API)
}

pub unsafe extern "C" fn create_context(
    dpy: Handle,
    config: Handle,
    share: Handle,
    attribs: *const EGLint,
) -> Handle {
    guard("eglCreateContext", std::ptr::null_mut(), || {
        let mut st = initialized(dpy)?;
        // EGL_KHR_no_config_context: EGL_NO_CONFIG_KHR (null) is a context usable with any
        // surface, or none.
        let config = if config.is_null() {
            None
        } else {
            Some(config_of(config)?)
        };
        if current_api() != egl::OPENGL_API {
            // §3.7.1: a config that does not support the current API is EGL_BAD_CONFIG;
            // with no config, the mismatch is EGL_BAD_MATCH.
            let code = if config.is_some() {
                egl::BAD_CONFIG
            } else {
                egl::BAD_MATCH
            };
            return Err(why(
                code,
                "the bound API is not EGL_OPENGL_API (softgl renders OpenGL only)",
            ));
        }
        // SAFETY: the application's EGL_NONE-terminated list.
        let list = unsafe { read_attribs(attribs)? };
        let attribs = context_attribs(&list)?;
        let share_ctx = if share.is_null() {
            None
        } else {
            Some(st.context(share)?.shared.clone())
        };
        let created = {
            let share_guard = share_ctx.as_ref().map(lock_context);
            // EGL 1.5 §3.7.1.1 (and EGL_EXT_create_context_robustness): contexts that
            // share must have the same reset notification strategy.
            if let Some(g) = share_guard.as_deref() {
                if g.attribs().lose_context_on_reset != attribs.lose_context_on_reset {
                    return Err(why(
                        egl::BAD_MATCH,
                        "the share context has another reset notification strategy",
                    ));
                }
            }
            softgl::Context::with_attribs(&attribs, share_guard.as_deref())
        };
        let ctx = created.map_err(|e| {
            let code = match e {
                ContextError::VersionUnsupported { .. }
                | ContextError::OverrideOtherProfile { .. }
                | ContextError::VersionInvalid { .. }
                | ContextError::ForwardCompatibleBelow30 => egl::BAD_MATCH,
                ContextError::BadShareContext(_) => egl::BAD_CONTEXT,
            };
            why(code, e.to_string())
        })?;
        let id = st.new_id();
        st.contexts.insert(
            id,
            ContextRec {
                shared: std::sync::Arc::new(std::sync::Mutex::new(ctx)),
                config,
                attribs,
                current_on: None,
                draw: 0,
                read: 0,
                doomed: false,
            },
        );
        Ok(id as Handle)
    })
}

pub unsafe extern "C" fn destroy_context(dpy: Handle, ctx: Handle) -> EGLBoolean {
    guard("eglDestroyContext", egl::FALSE, || {
        let mut st = initialized(dpy)?;
        st.context(ctx)?;
        if let Some(c) = st.contexts.get_mut(&(ctx as usize)) {
            c.doomed = true;
        }
        // §3.7.2: deleted now unless current to some thread, then when released.
        st.collect();
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn query_context(
    dpy: Handle,
    ctx: Handle,
    attrib: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard("eglQueryContext", egl::FALSE, || {
        let st = initialized(dpy)?;
        let c = st.context(ctx)?;
        let v = match attrib {
            // EGL_KHR_no_config_context: a context without config reports 0.
            egl::CONFIG_ID => c.config.map_or(0, |c| c.id),
            egl::CONTEXT_CLIENT_TYPE => egl::OPENGL_API,
            egl::CONTEXT_CLIENT_VERSION => c.attribs.major as EGLint,
            // §3.7.4: what the context renders to: a pbuffer's back buffer, or nothing
            // when not current or surfaceless.
            egl::RENDER_BUFFER => {
                if c.current_on.is_some() && c.draw != 0 {
                    egl::BACK_BUFFER
                } else {
                    egl::NONE
                }
            }
            _ => {
                return Err(why(
                    egl::BAD_ATTRIBUTE,
                    format!("{} is not a context attribute", egl::name(attrib)),
                ))
            }
        };
        // SAFETY: the application's out-parameter.
        unsafe { store(value, v)? };
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn make_current(
    dpy: Handle,
    draw: Handle,
    read: Handle,
    ctx: Handle,
) -> EGLBoolean {
    guard("eglMakeCurrent", egl::FALSE, || {
        if dpy != display_handle() {
            return Err(why(egl::BAD_DISPLAY, "not a display of softgl"));
        }
        let mut st = state::lock();
        if ctx.is_null() {
            // §3.7.3: releasing is allowed even on a terminated display.
            if !draw.is_null() || !read.is_null() {
                return Err(why(egl::BAD_MATCH, "EGL_NO_CONTEXT with a surface"));
            }
            st.release_current();
            return Ok(egl::TRUE);
        }
        if !st.initialized {
            return Err(why(
                egl::NOT_INITIALIZED,
                "the display is not initialized (eglInitialize)",
            ));
        }
        let this = std::thread::current().id();
        let ctx_id = ctx as usize;
        let c = st.context(ctx)?;
        if draw.is_null() != read.is_null() {
            return Err(why(
                egl::BAD_MATCH,
                "one of draw and read is EGL_NO_SURFACE and the other is not",
            ));
        }
        let surface = if draw.is_null() {
            // EGL_KHR_surfaceless_context: no default framebuffer; FBOs only.
            None
        } else {
            let d = st.surface(draw)?;
            st.surface(read)?;
            // softgl's default framebuffer is one surface for drawing and reading.
            if draw != read {
                return Err(why(
                    egl::BAD_MATCH,
                    "softgl needs the same surface for draw and read",
                ));
            }
            // §3.7.3: the surface must be compatible with the context's config (same
            // buffers); a no-config context takes any surface.
            if c.config.is_some_and(|cfg| cfg != d.config) {
                return Err(why(
                    egl::BAD_MATCH,
                    "the surface's config is not the context's config",
                ));
            }
            Some(d.surface.clone())
        };
        if c.current_on.is_some_and(|t| t != this) {
            return Err(why(
                egl::BAD_ACCESS,
                "the context is current on another thread",
            ));
        }
        let draw_id = draw as usize;
        if draw_id != 0
            && st.contexts.iter().any(|(&id, other)| {
                id != ctx_id
                    && other.current_on.is_some_and(|t| t != this)
                    && (other.draw == draw_id || other.read == draw_id)
            })
        {
            return Err(why(
                egl::BAD_ACCESS,
                "the surface is bound to a context current on another thread",
            ));
        }
        let shared = c.shared.clone();

        // Commit: release what this thread had current, then bind the new context.
        if state::current_id() != ctx_id {
            st.release_current();
        }
        if let Some(rec) = st.contexts.get_mut(&ctx_id) {
            rec.current_on = Some(this);
            rec.draw = draw_id;
            rec.read = read as usize;
        }
        lock_context(&shared).set_default_surface(surface.as_ref());
        softgl::make_current(Some(shared));
        state::set_current_id(ctx_id);
        st.collect();
        Ok(egl::TRUE)
    })
}

/// The context current on this thread, for the calls that act on it.
fn current_context(st: &State) -> Option<&ContextRec> {
    st.contexts.get(&state::current_id())
}

pub unsafe extern "C" fn swap_buffers(dpy: Handle, surface: Handle) -> EGLBoolean {
    guard("eglSwapBuffers", egl::FALSE, || {
        let st = initialized(dpy)?;
        st.surface(surface)?;
        // §3.10.1: the surface must be the current context's draw surface.
        let not_current = || {
            why(
                egl::BAD_SURFACE,
                "the surface is not the draw surface of this thread's current context",
            )
        };
        let c = current_context(&st).ok_or_else(not_current)?;
        if c.draw != surface as usize {
            return Err(not_current());
        }
        // A pbuffer has no front buffer to post to: swapping only flushes (§3.10.1.1's
        // implicit glFlush), so the images hold everything drawn so far.
        lock_context(&c.shared).flush();
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn swap_interval(dpy: Handle, _interval: EGLint) -> EGLBoolean {
    guard("eglSwapInterval", egl::FALSE, || {
        let st = initialized(dpy)?;
        let c = current_context(&st)
            .ok_or_else(|| why(egl::BAD_CONTEXT, "no context is current on this thread"))?;
        if c.draw == 0 {
            return Err(why(egl::BAD_SURFACE, "the current context has no surface"));
        }
        // Clamped to [MIN, MAX]_SWAP_INTERVAL = [0, 0]: pbuffers are never posted.
        Ok(egl::TRUE)
    })
}

/// eglWaitClient / eglWaitGL: all GL rendering done before the call is complete when it
/// returns (§3.8), i.e. glFinish on the current context.
pub unsafe extern "C" fn wait_client() -> EGLBoolean {
    guard("eglWaitClient", egl::FALSE, || {
        let st = state::lock();
        if let Some(c) = current_context(&st) {
            lock_context(&c.shared).finish();
        }
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn wait_gl() -> EGLBoolean {
    // SAFETY: no preconditions.
    unsafe { wait_client() }
}

/// eglWaitNative: there is no native rendering to wait for; only the core engine exists.
pub unsafe extern "C" fn wait_native(engine: EGLint) -> EGLBoolean {
    guard("eglWaitNative", egl::FALSE, || {
        if engine != egl::CORE_NATIVE_ENGINE {
            return Err(why(
                egl::BAD_PARAMETER,
                format!(
                    "{} is not a native engine (EGL_CORE_NATIVE_ENGINE is)",
                    egl::name(engine)
                ),
            ));
        }
        Ok(egl::TRUE)
    })
}

/// eglReleaseThread: releases the current context and resets the thread's EGL state
/// (§3.11).
pub unsafe extern "C" fn release_thread() -> EGLBoolean {
    guard("eglReleaseThread", egl::FALSE, || {
        state::lock().release_current();
        Ok(egl::TRUE)
    })
}

// ---- EGL 1.5 §3.8.1: fence sync objects -----------------------------------------------

pub unsafe extern "C" fn create_sync(
    dpy: Handle,
    kind: EGLenum,
    attribs: *const EGLAttrib,
) -> Handle {
    guard("eglCreateSync", std::ptr::null_mut(), || {
        let st = initialized(dpy)?;
        // SAFETY: the application's EGL_NONE-terminated list.
        let list = unsafe { read_attribs_wide(attribs)? };
        create_fence(st, kind, list.is_empty())
    })
}

/// eglCreateSyncKHR (EGL_KHR_fence_sync): eglCreateSync with an `EGLint` attribute list.
pub unsafe extern "C" fn create_sync_khr(
    dpy: Handle,
    kind: EGLenum,
    attribs: *const EGLint,
) -> Handle {
    guard("eglCreateSyncKHR", std::ptr::null_mut(), || {
        let st = initialized(dpy)?;
        // SAFETY: the application's EGL_NONE-terminated list.
        let list = unsafe { read_attribs(attribs)? };
        create_fence(st, kind, list.is_empty())
    })
}

/// The fence both eglCreateSync and eglCreateSyncKHR create (EGL 1.5 §3.8.1).
fn create_fence(
    mut st: std::sync::MutexGuard<'static, State>,
    kind: EGLenum,
    no_attribs: bool,
) -> Result<Handle, EGLint> {
    if kind as EGLint != egl::SYNC_FENCE {
        // EGL_SYNC_CL_EVENT needs OpenCL interop, which softgl does not have.
        return Err(why(
            egl::BAD_PARAMETER,
            format!(
                "sync type {}: softgl makes fences only (EGL_SYNC_FENCE)",
                egl::name(kind as EGLint)
            ),
        ));
    }
    if !no_attribs {
        // A fence takes no attributes.
        return Err(why(egl::BAD_ATTRIBUTE, "a fence sync takes no attributes"));
    }
    // The fence goes into the current context's command stream (EGL_BAD_MATCH without
    // one). softgl's flush runs every queued command to completion, so once it returns the
    // fence condition, "all prior commands complete", holds: the fence is created signaled.
    let c = current_context(&st).ok_or_else(|| {
        why(
            egl::BAD_MATCH,
            "no OpenGL context is current on this thread",
        )
    })?;
    lock_context(&c.shared).flush();
    let id = st.new_id();
    st.syncs.insert(id);
    Ok(id as Handle)
}

pub unsafe extern "C" fn destroy_sync(dpy: Handle, sync: Handle) -> EGLBoolean {
    guard("eglDestroySync", egl::FALSE, || {
        let mut st = initialized(dpy)?;
        if !st.syncs.remove(&(sync as usize)) {
            return Err(not_a_sync(sync));
        }
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn client_wait_sync(
    dpy: Handle,
    sync: Handle,
    _flags: EGLint,
    _timeout: u64,
) -> EGLint {
    guard("eglClientWaitSync", egl::FALSE as EGLint, || {
        let st = initialized(dpy)?;
        if !st.syncs.contains(&(sync as usize)) {
            return Err(not_a_sync(sync));
        }
        // Fences are signaled from creation (see create_sync).
        Ok(egl::CONDITION_SATISFIED)
    })
}

/// eglWaitSyncKHR (EGL_KHR_wait_sync): eglWaitSync returning `EGLint`.
pub unsafe extern "C" fn wait_sync_khr(dpy: Handle, sync: Handle, flags: EGLint) -> EGLint {
    // SAFETY: same contract.
    unsafe { wait_sync(dpy, sync, flags) as EGLint }
}

pub unsafe extern "C" fn wait_sync(dpy: Handle, sync: Handle, flags: EGLint) -> EGLBoolean {
    guard("eglWaitSync", egl::FALSE, || {
        let st = initialized(dpy)?;
        if !st.syncs.contains(&(sync as usize)) {
            return Err(not_a_sync(sync));
        }
        if flags != 0 {
            return Err(why(
                egl::BAD_PARAMETER,
                format!("flags 0x{flags:x} must be 0"),
            ));
        }
        current_context(&st).ok_or_else(|| {
            why(
                egl::BAD_MATCH,
                "no OpenGL context is current on this thread",
            )
        })?;
        Ok(egl::TRUE)
    })
}

/// eglGetSyncAttribKHR (EGL_KHR_fence_sync): eglGetSyncAttrib with an `EGLint` value.
pub unsafe extern "C" fn get_sync_attrib_khr(
    dpy: Handle,
    sync: Handle,
    attrib: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard("eglGetSyncAttribKHR", egl::FALSE, || {
        let v = sync_attrib(dpy, sync, attrib)?;
        // SAFETY: the application's out-parameter.
        unsafe { store(value, v)? };
        Ok(egl::TRUE)
    })
}

pub unsafe extern "C" fn get_sync_attrib(
    dpy: Handle,
    sync: Handle,
    attrib: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    guard("eglGetSyncAttrib", egl::FALSE, || {
        let v = sync_attrib(dpy, sync, attrib)?;
        // SAFETY: the application's out-parameter.
        unsafe { store(value, v as EGLAttrib)? };
        Ok(egl::TRUE)
    })
}

/// A fence's attribute (EGL 1.5 §3.8.1.2; the KHR names have the same values).
fn sync_attrib(dpy: Handle, sync: Handle, attrib: EGLint) -> Result<EGLint, EGLint> {
    let st = initialized(dpy)?;
    if !st.syncs.contains(&(sync as usize)) {
        return Err(not_a_sync(sync));
    }
    match attrib {
        egl::SYNC_TYPE => Ok(egl::SYNC_FENCE),
        egl::SYNC_STATUS => Ok(egl::SIGNALED),
        egl::SYNC_CONDITION => Ok(egl::SYNC_PRIOR_COMMANDS_COMPLETE),
        _ => Err(why(
            egl::BAD_ATTRIBUTE,
            format!("{} is not a sync attribute", egl::name(attrib)),
        )),
    }
}

/// EGL_BAD_PARAMETER for a handle that is not a live sync of this display (§3.8.1).
fn not_a_sync(sync: Handle) -> EGLint {
    why(
        egl::BAD_PARAMETER,
        format!("{sync:p} is not a sync object of softgl"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_mask_only_counts_from_3_2() {
        let a = context_attribs(&[(egl::CONTEXT_MAJOR_VERSION, 2)]).unwrap();
        assert_eq!(a.profile, Profile::Compatibility);
        let a = context_attribs(&[
            (egl::CONTEXT_MAJOR_VERSION, 4),
            (egl::CONTEXT_MINOR_VERSION, 5),
        ])
        .unwrap();
        assert_eq!(a.profile, Profile::Core);
        let a = context_attribs(&[
            (egl::CONTEXT_MAJOR_VERSION, 3),
            (egl::CONTEXT_MINOR_VERSION, 3),
            (
                egl::CONTEXT_OPENGL_PROFILE_MASK,
                egl::CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
            ),
        ])
        .unwrap();
        assert_eq!(a.profile, Profile::Compatibility);
        assert_eq!(
            context_attribs(&[
                (egl::CONTEXT_MAJOR_VERSION, 3),
                (egl::CONTEXT_MINOR_VERSION, 2),
                (egl::CONTEXT_OPENGL_PROFILE_MASK, 0),
            ])
            .unwrap_err(),
            egl::BAD_MATCH
        );
    }

    #[test]
    fn flags_and_unknown_attributes() {
        let a = context_attribs(&[(
            egl::CONTEXT_FLAGS_KHR,
            egl::CONTEXT_OPENGL_DEBUG_BIT_KHR | egl::CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR,
        )])
        .unwrap();
        assert!(a.debug && a.forward_compatible);
        assert_eq!(
            context_attribs(&[(egl::CONTEXT_FLAGS_KHR, 0x100)]).unwrap_err(),
            egl::BAD_ATTRIBUTE
        );
        assert_eq!(
            context_attribs(&[(0x1234, 0)]).unwrap_err(),
            egl::BAD_ATTRIBUTE
        );
        assert!(
            context_attribs(&[(egl::CONTEXT_OPENGL_ROBUST_ACCESS, 1)])
                .unwrap()
                .robust_access
        );
    }

    #[test]
    fn client_extensions_name_the_device_extensions_without_a_display() {
        // SAFETY: EGL_NO_DISPLAY is allowed for the client extensions; the string is static.
        let s = unsafe { CStr::from_ptr(query_string(std::ptr::null_mut(), egl::EXTENSIONS)) };
        let s = s.to_str().unwrap();
        // libglvnd asks a vendor for devices only if one of the first two is listed.
        for ext in [
            "EGL_EXT_device_base",
            "EGL_EXT_device_enumeration",
            "EGL_EXT_device_query",
            "EGL_EXT_platform_device",
            "EGL_EXT_platform_base",
        ] {
            assert!(s.split(' ').any(|e| e == ext), "{ext} missing from {s}");
        }
        let p = PLATFORM_EXTENSIONS.to_str().unwrap();
        assert!(p.split(' ').any(|e| e == "EGL_EXT_platform_device"), "{p}");
    }

    #[test]
    fn robustness_ext_names_mean_the_core_attributes() {
        // EGL_EXT_create_context_robustness's names and EGL 1.5's mean the same: robust
        // access and the reset notification strategy reach the context's attributes.
        let a = context_attribs(&[
            (egl::CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 0),
            (
                egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                egl::NO_RESET_NOTIFICATION,
            ),
        ])
        .unwrap();
        assert!(!a.robust_access && !a.lose_context_on_reset);
        for robust in [
            egl::CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
            egl::CONTEXT_OPENGL_ROBUST_ACCESS,
        ] {
            for strategy in [
                egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
            ] {
                let a = context_attribs(&[(robust, 1), (strategy, egl::LOSE_CONTEXT_ON_RESET)])
                    .unwrap();
                assert!(a.robust_access && a.lose_context_on_reset);
            }
        }
        let a = context_attribs(&[(
            egl::CONTEXT_FLAGS_KHR,
            egl::CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR,
        )])
        .unwrap();
        assert!(a.robust_access);
        assert_eq!(
            context_attribs(&[(egl::CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, 0x1234)])
                .unwrap_err(),
            egl::BAD_ATTRIBUTE
        );
    }

    #[test]
    fn guard_turns_panics_into_bad_alloc() {
        let v = guard("eglTest", 7, || -> Result<i32, EGLint> {
            panic!("test panic")
        });
        assert_eq!(v, 7);
        assert_eq!(state::take_error(), egl::BAD_ALLOC);
        assert_eq!(state::take_error(), egl::SUCCESS);
    }

    /// The `SOFTGL_DEBUG=egl` line names the function, the error and the reason.
    #[test]
    fn messages_name_the_function_the_error_and_why() {
        let _ = WHY.try_with(|w| *w.borrow_mut() = Some("softgl has no windows".into()));
        assert_eq!(
            message("eglCreateWindowSurface", egl::BAD_MATCH),
            "softgl egl: eglCreateWindowSurface: EGL_BAD_MATCH: softgl has no windows"
        );
        assert_eq!(
            message("eglInitialize", egl::BAD_DISPLAY),
            "softgl egl: eglInitialize: EGL_BAD_DISPLAY"
        );
        assert_eq!(message("eglX", 0x1234), "softgl egl: eglX: 0x1234");
    }
}
