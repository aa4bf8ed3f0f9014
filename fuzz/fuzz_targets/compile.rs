//! Fuzz target: the whole GLSL compiler (preprocess, parse, check, lower) returns a module
//! or an info log for any bytes, never panics; a module it returns passes IR validation and
//! compiles in the JIT without panicking (DESIGN.md §6).
#![no_main]

use libfuzzer_sys::fuzz_target;
use softgl::glsl::compile;
use softgl::ir::{validate, Stage};

fuzz_target!(|data: &[u8]| {
    let (stage, rest) = match data.split_first() {
        Some((b, rest)) if b & 1 == 1 => (Stage::Fragment, rest),
        Some((_, rest)) => (Stage::Vertex, rest),
        None => (Stage::Vertex, data),
    };
    let source = String::from_utf8_lossy(rest);
    let out = compile(stage, &source);
    match out.module {
        Some(m) => {
            validate(&m).unwrap_or_else(|e| panic!("front end emitted invalid IR: {e}"));
            // Errors are allowed (limits, unsupported); panics are not.
            let _ = softgl::jit::compile(&m);
        }
        None => assert!(out.info_log.contains("error"), "failed without an error"),
    }
});
