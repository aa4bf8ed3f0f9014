//! softgl as an EGL device: EGL_EXT_device_enumeration + EGL_EXT_device_query (together
//! EGL_EXT_device_base), EGL_EXT_platform_device, and EGL_MESA_device_software as the one
//! device extension (the name Mesa gives a CPU renderer's device).
//!
//! softgl is one software device. Its display (`eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT,
//! device, NULL)`) is softgl's one display, the same handle as the surfaceless platform's
//! and the default display: same configs, pbuffers and surfaceless contexts, one
//! initialization state.
//!
//! How libglvnd reaches these functions (libglvnd's `src/EGL/libegl.c`, `libeglvendor.c`,
//! `libeglmapping.c`):
//! - `eglQueryDevicesEXT` is libEGL's own: it asks every vendor whose client extensions
//!   name EGL_EXT_device_base or EGL_EXT_device_enumeration for its devices, through the
//!   vendor's `eglQueryDevicesEXT` (found with `getProcAddress` when the vendor is loaded),
//!   concatenates the lists, and records which vendor owns each handle. A device handle must
//!   therefore be unique across vendors: it is the address of a static here.
//! - `eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev)` goes to the vendor libEGL
//!   recorded for `dev`, through `getPlatformDisplay`.
//! - `eglQueryDisplayAttribEXT` is libEGL's own too: it calls the display's vendor's
//!   `eglQueryDisplayAttribKHR`/`EXT`/`NV` (whichever `getProcAddress` gives) and records the
//!   vendor of a returned EGL_DEVICE_EXT.
//! - `eglQueryDeviceStringEXT` and `eglQueryDeviceAttribEXT` are not libEGL's: its
//!   `eglGetProcAddress` asks the vendors' `getDispatchAddress` for a dispatch stub (the
//!   first vendor that has one wins, so it must work for every vendor's devices), and the
//!   stub finds the device's vendor at each call (`crate::dispatch`).

use std::ffi::{c_char, c_void, CStr};

use crate::consts as egl;
use crate::consts::{EGLAttrib, EGLBoolean, EGLint};
use crate::entry::{guard, initialized, why};

type Handle = *mut c_void;

/// The EGLDeviceEXT handle: the address of this static (unique in the process, so libglvnd
/// can tell it from other vendors' devices).
static DEVICE_TAG: u8 = 0;

pub fn device_handle() -> Handle {
    std::ptr::addr_of!(DEVICE_TAG) as Handle
}

/// The device's extensions (eglQueryDeviceStringEXT(dev, EGL_EXTENSIONS)): a CPU renderer,
/// no DRM node.
pub const DEVICE_EXTENSIONS: &CStr = c"EGL_MESA_device_software";

fn check_device(dev: Handle) -> Result<(), EGLint> {
    if dev == device_handle() {
        Ok(())
    } else {
        Err(why(
            egl::BAD_DEVICE_EXT,
            format!("{dev:p} is not softgl's device"),
        ))
    }
}

/// eglQueryDevicesEXT (EGL_EXT_device_enumeration): softgl's one device. libglvnd calls it
/// first with `max_devices` 0 and no array to count, then with an array.
pub unsafe extern "C" fn query_devices(
    max_devices: EGLint,
    devices: *mut Handle,
    num_devices: *mut EGLint,
) -> EGLBoolean {
    guard("eglQueryDevicesEXT", egl::FALSE, || {
        if num_devices.is_null() {
            return Err(why(egl::BAD_PARAMETER, "num_devices is null"));
        }
        if !devices.is_null() && max_devices <= 0 {
            return Err(why(
                egl::BAD_PARAMETER,
                format!("max_devices {max_devices} with a device array"),
            ));
        }
        let n = if devices.is_null() {
            1
        } else {
            // SAFETY: `devices` holds `max_devices` (> 0) writable handles (EGL API).
            unsafe { devices.write(device_handle()) };
            1
        };
        // SAFETY: checked non-null; the caller's out-parameter.
        unsafe { num_devices.write(n) };
        Ok(egl::TRUE)
    })
}

/// eglQueryDeviceStringEXT (EGL_EXT_device_query): EGL_EXTENSIONS is the only name.
pub unsafe extern "C" fn query_device_string(dev: Handle, name: EGLint) -> *const c_char {
    guard("eglQueryDeviceStringEXT", std::ptr::null(), || {
        check_device(dev)?;
        match name {
            egl::EXTENSIONS => Ok(DEVICE_EXTENSIONS.as_ptr()),
            _ => Err(why(
                egl::BAD_PARAMETER,
                format!(
                    "{} is not a device string (EGL_EXTENSIONS is)",
                    egl::name(name)
                ),
            )),
        }
    })
}

/// eglQueryDeviceAttribEXT (EGL_EXT_device_query): the device extensions softgl has define
/// no attributes (EGL_DRM_DEVICE_FILE_EXT and the CUDA ones belong to hardware devices).
pub unsafe extern "C" fn query_device_attrib(
    dev: Handle,
    attribute: EGLint,
    _value: *mut EGLAttrib,
) -> EGLBoolean {
    guard("eglQueryDeviceAttribEXT", egl::FALSE, || {
        check_device(dev)?;
        Err(why(
            egl::BAD_ATTRIBUTE,
            format!(
                "{}: softgl's software device has no device attributes",
                egl::name(attribute)
            ),
        ))
    })
}

/// eglQueryDisplayAttribEXT (EGL_EXT_device_query): EGL_DEVICE_EXT gives the display's
/// device; libEGL records that the handle is this vendor's.
pub unsafe extern "C" fn query_display_attrib(
    dpy: Handle,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    guard("eglQueryDisplayAttribEXT", egl::FALSE, || {
        let _st = initialized(dpy)?;
        if value.is_null() {
            return Err(why(egl::BAD_PARAMETER, "the value pointer is null"));
        }
        match attribute {
            egl::DEVICE_EXT => {
                // SAFETY: checked non-null; the caller's out-parameter.
                unsafe { value.write(device_handle() as EGLAttrib) };
                Ok(egl::TRUE)
            }
            _ => Err(why(
                egl::BAD_ATTRIBUTE,
                format!(
                    "{} is not a display attribute (EGL_DEVICE_EXT is)",
                    egl::name(attribute)
                ),
            )),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state;

    #[test]
    fn one_device_counted_then_listed() {
        let mut n = -1;
        // SAFETY: valid out-pointer, no array.
        let r = unsafe { query_devices(0, std::ptr::null_mut(), &mut n) };
        assert_eq!(r, egl::TRUE);
        assert_eq!(n, 1);
        let mut devs = [std::ptr::null_mut(); 4];
        // SAFETY: an array of 4 handles.
        let r = unsafe { query_devices(4, devs.as_mut_ptr(), &mut n) };
        assert_eq!(r, egl::TRUE);
        assert_eq!(
            (n, devs[0], devs[1]),
            (1, device_handle(), std::ptr::null_mut())
        );
        // An array with no room, or no count pointer: EGL_BAD_PARAMETER.
        // SAFETY: the function checks both before writing.
        let r = unsafe { query_devices(0, devs.as_mut_ptr(), &mut n) };
        assert_eq!((r, state::take_error()), (egl::FALSE, egl::BAD_PARAMETER));
        // SAFETY: as above.
        let r = unsafe { query_devices(1, devs.as_mut_ptr(), std::ptr::null_mut()) };
        assert_eq!((r, state::take_error()), (egl::FALSE, egl::BAD_PARAMETER));
    }

    #[test]
    fn device_string_names_the_software_device() {
        // SAFETY: valid arguments; the string is static.
        let s = unsafe { query_device_string(device_handle(), egl::EXTENSIONS) };
        // SAFETY: non-null, NUL-terminated static string.
        let s = unsafe { CStr::from_ptr(s) }.to_str().unwrap();
        assert!(s.split(' ').any(|e| e == "EGL_MESA_device_software"), "{s}");
        assert_eq!(state::take_error(), egl::SUCCESS);
        // SAFETY: a bad handle is only compared, never dereferenced.
        let bad = unsafe { query_device_string(0x1234 as Handle, egl::EXTENSIONS) };
        assert!(bad.is_null());
        assert_eq!(state::take_error(), egl::BAD_DEVICE_EXT);
        // SAFETY: valid handle, unknown name.
        let bad = unsafe { query_device_string(device_handle(), egl::VENDOR) };
        assert!(bad.is_null());
        assert_eq!(state::take_error(), egl::BAD_PARAMETER);
        let mut v: EGLAttrib = 0;
        // SAFETY: valid out-pointer.
        let r = unsafe { query_device_attrib(device_handle(), egl::DEVICE_EXT, &mut v) };
        assert_eq!((r, state::take_error()), (egl::FALSE, egl::BAD_ATTRIBUTE));
    }

    #[test]
    fn the_device_display_is_softgls_display() {
        use crate::entry::{get_platform_display, initialize};
        use crate::state::display_handle;
        let dev = device_handle();
        // SAFETY: no attribute list; the device handle is only compared.
        let dpy =
            unsafe { get_platform_display(egl::PLATFORM_DEVICE_EXT as u32, dev, std::ptr::null()) };
        assert_eq!(dpy, display_handle());
        // The device platform needs a device: EGL_DEFAULT_DISPLAY (libEGL sends it to every
        // vendor) or another vendor's handle is EGL_BAD_PARAMETER.
        for native in [std::ptr::null_mut(), 0x1234 as Handle] {
            // SAFETY: as above.
            let d = unsafe {
                get_platform_display(egl::PLATFORM_DEVICE_EXT as u32, native, std::ptr::null())
            };
            assert!(d.is_null());
            assert_eq!(state::take_error(), egl::BAD_PARAMETER);
        }
        // Display attributes are refused.
        let attribs: [EGLAttrib; 3] = [0x3100, 1, egl::NONE as EGLAttrib];
        // SAFETY: an EGL_NONE-terminated list.
        let d =
            unsafe { get_platform_display(egl::PLATFORM_DEVICE_EXT as u32, dev, attribs.as_ptr()) };
        assert!(d.is_null());
        assert_eq!(state::take_error(), egl::BAD_ATTRIBUTE);

        // eglQueryDisplayAttribEXT(EGL_DEVICE_EXT) leads back to the device. Initializing
        // is harmless to other tests: none terminates the display.
        // SAFETY: null out-parameters are allowed.
        let r = unsafe { initialize(dpy, std::ptr::null_mut(), std::ptr::null_mut()) };
        assert_eq!(r, egl::TRUE);
        let mut v: EGLAttrib = 0;
        // SAFETY: a valid out-pointer.
        let r = unsafe { query_display_attrib(dpy, egl::DEVICE_EXT, &mut v) };
        assert_eq!(r, egl::TRUE);
        assert_eq!(v as Handle, dev);
        // SAFETY: as above.
        let r = unsafe { query_display_attrib(dpy, egl::VENDOR, &mut v) };
        assert_eq!((r, state::take_error()), (egl::FALSE, egl::BAD_ATTRIBUTE));
        // SAFETY: a bad display is only compared.
        let r = unsafe { query_display_attrib(0x99 as Handle, egl::DEVICE_EXT, &mut v) };
        assert_eq!((r, state::take_error()), (egl::FALSE, egl::BAD_DISPLAY));
    }
}
