//! Build script of the EGL vendor library: sets the soname and writes the vendor JSON
//! next to the built library.
//!
//! libglvnd loads vendors from JSON files (`__EGL_VENDOR_LIBRARY_FILENAMES` or
//! `/usr/share/glvnd/egl_vendor.d`); `library_path` must be a bare file name (searched by
//! `dlopen`) or an absolute path (libglvnd's `src/EGL/icd_enumeration.md`; relative paths
//! with a slash are relative to the JSON only in newer libglvnd releases). So the JSON
//! written here, `softgl_egl.json` beside `libEGL_softgl.so`, names the library by its
//! absolute path: pointing `__EGL_VENDOR_LIBRARY_FILENAMES` at it is all a developer needs.

use std::path::{Path, PathBuf};

fn main() {
    // The soname a system install uses (`driver/softgl.json` names this file).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libEGL_softgl.so.0");
    println!("cargo:rerun-if-changed=build.rs");

    // OUT_DIR is <target>/<profile>/build/softgl-egl-<hash>/out; the library lands in
    // <target>/<profile>/. Cargo has no stable way to name final artifact paths from a
    // build script, so walk up from OUT_DIR, and skip the JSON (with a warning) if the
    // layout is not the one expected.
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let Some(profile_dir) = out_dir.ancestors().nth(3) else {
        println!("cargo:warning=unexpected OUT_DIR layout; vendor JSON not written");
        return;
    };
    if profile_dir.join("build").is_dir() {
        write_json(profile_dir);
    } else {
        println!("cargo:warning=unexpected OUT_DIR layout; vendor JSON not written");
    }
}

fn write_json(profile_dir: &Path) {
    let lib = profile_dir.join("libEGL_softgl.so");
    let escaped: String = lib
        .to_string_lossy()
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect();
    let json = format!(
        "{{\n    \"file_format_version\" : \"1.0.0\",\n    \"ICD\" : {{\n        \"library_path\" : \"{escaped}\"\n    }}\n}}\n"
    );
    let path = profile_dir.join("softgl_egl.json");
    // Rewrite only on change, so the file's mtime stays put between builds.
    if std::fs::read_to_string(&path).ok().as_deref() != Some(json.as_str()) {
        if let Err(e) = std::fs::write(&path, json) {
            println!("cargo:warning=could not write {}: {e}", path.display());
        }
    }
}
