//! JIT tests.
