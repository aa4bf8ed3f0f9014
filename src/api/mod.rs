//! The GL state machine: `Context`, object namespaces, GL errors, draw validation, the
//! bindless handle API.
//!
//! | file | owns |
//! |---|---|
//! | `enums.rs` | GL enum values, generated from the Khronos registry |

pub mod enums;

/// A headless GL context (placeholder until the API lands).
#[derive(Debug, Default)]
pub struct Context {}
