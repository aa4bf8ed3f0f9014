//! The C driver end to end: builds `libEGL_softgl.so` (the `softgl-egl` workspace member),
//! compiles `tests/c/egl_bindless.c` with the system C compiler against libglvnd
//! (`-lEGL -lOpenGL`), and runs it with `__EGL_VENDOR_LIBRARY_FILENAMES` naming the
//! freshly built driver's vendor JSON, as any unmodified GL program would be run.
//!
//! Needs `cc` and Debian's `libegl-dev` + `libopengl-dev` (`.ci/run` installs them). When
//! they are missing the test fails with a message saying so: a driver test that did not
//! run is not a pass.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `<target>/<profile>`: where cargo put this test binary's dependencies, and where the
/// driver build below puts `libEGL_softgl.so` and `softgl_egl.json`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("path of the test binary");
    // <target>/<profile>/deps/c_driver-<hash>
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary in <target>/<profile>/deps")
        .to_path_buf()
}

/// Builds the driver with the same target dir and profile as this test, so the `softgl`
/// library already compiled for the test run is reused and only the cdylib is built.
///
/// Selecting this test target too (`--test c_driver`, already built: a no-op) makes cargo
/// resolve features with the root package's dev-dependencies on, as `cargo test` did;
/// without it a dependency's features differ (criterion turns on `either/use_std` under
/// rayon) and `softgl` would be compiled a second time (4 minutes on 2 cores).
fn build_driver(profile_dir: &Path) {
    let target_dir = profile_dir.parent().expect("target dir");
    let profile = profile_dir
        .file_name()
        .and_then(|n| n.to_str())
        .expect("profile dir name");
    // Cargo names the dev profile's directory "debug".
    let profile = if profile == "debug" { "dev" } else { profile };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args([
            "build",
            "-p",
            "softgl",
            "-p",
            "softgl-egl",
            "--lib",
            "--test",
            "c_driver",
        ])
        .args(["--profile", profile])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .output()
        .expect("running cargo to build the driver");
    assert!(
        out.status.success(),
        "building softgl-egl failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles the C program; a clear failure when the tools are missing.
fn compile_c(source: &Path, exe: &Path) {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = match Command::new(&cc)
        .args(["-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-o"])
        .arg(exe)
        .arg(source)
        .args(["-lEGL", "-lOpenGL", "-lpthread"])
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!(
            "NOT RUN: the C compiler `{cc}` could not be started ({e}). Install a C compiler \
             and libglvnd's development files (Debian: build-essential libegl-dev \
             libopengl-dev; .ci/run does this)."
        ),
    };
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let missing = stderr.contains("EGL/egl.h")
            || stderr.contains("GL/glcorearb.h")
            || stderr.contains("-lEGL")
            || stderr.contains("-lOpenGL");
        panic!(
            "{}compiling {} failed:\n{stderr}",
            if missing {
                "NOT RUN: libglvnd's development files are missing (Debian: libegl-dev \
                 libopengl-dev; .ci/run installs them). "
            } else {
                ""
            },
            source.display()
        );
    }
}

#[test]
fn c_program_renders_bindless_quad_through_libglvnd() {
    let profile_dir = profile_dir();
    build_driver(&profile_dir);
    let json = profile_dir.join("softgl_egl.json");
    assert!(
        json.is_file(),
        "the driver build did not write {}",
        json.display()
    );

    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/egl_bindless.c");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("egl_bindless");
    compile_c(&source, &exe);

    let out = Command::new(&exe)
        .env("__EGL_VENDOR_LIBRARY_FILENAMES", &json)
        // The program sets and unsets the override itself (it checks both sides).
        .env_remove("SOFTGL_GL_VERSION_OVERRIDE")
        // libglvnd honours EGL_PLATFORM for eglGetDisplay; keep the test's display choice.
        .env_remove("EGL_PLATFORM")
        // EGL errors print why they happened; the checks below read some of those lines.
        .env("SOFTGL_DEBUG", "egl")
        .output()
        .expect("running the C program");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the C program failed ({}):\n{stdout}{stderr}",
        out.status
    );
    assert!(
        stdout.contains("all checks passed"),
        "the C program exited 0 without finishing:\n{stdout}{stderr}"
    );
    // The errors the program provokes on purpose name the function, the error and why
    // (issue #10 item 3). A few, one per kind of reason:
    for (function_and_error, why) in [
        ("eglCreateContext: EGL_BAD_MATCH: ", "softgl supports"),
        (
            "eglDestroySync: EGL_BAD_PARAMETER: ",
            "is not a sync object of softgl",
        ),
        (
            "eglMakeCurrent: EGL_BAD_ACCESS: ",
            "the context is current on another thread",
        ),
        (
            "eglQueryContext: EGL_BAD_CONTEXT: ",
            "is not a live context of softgl",
        ),
    ] {
        assert!(
            stderr.lines().any(
                |l| l.starts_with(&format!("softgl egl: {function_and_error}")) && l.contains(why)
            ),
            "no line `softgl egl: {function_and_error}…{why}…` in:\n{stderr}"
        );
    }
}
