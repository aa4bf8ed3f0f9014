//! The GL state machine: `Context`, object namespaces, GL errors, draw validation, the
//! bindless handle API.

/// A headless GL context (placeholder until the API lands).
#[derive(Debug, Default)]
pub struct Context {}
