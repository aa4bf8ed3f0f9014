//! Fuzz target: the preprocessor returns tokens or diagnostics, never panics, for any
//! bytes (lossily decoded, so invalid UTF-8 becomes U+FFFD, which it must refuse cleanly).
#![no_main]

use libfuzzer_sys::fuzz_target;
use softgl::glsl::preprocess::preprocess;

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    match preprocess(&source) {
        Ok(out) => {
            // Every token has a 1-based column and non-empty text.
            for t in &out.tokens {
                assert!(t.span.column >= 1 && !t.text.is_empty());
            }
        }
        Err(diags) => assert!(!diags.is_empty()),
    }
});
