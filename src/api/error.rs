//! GL errors and the KHR_debug-style message log: `GlError` maps 1:1 to the GL error codes,
//! `ErrorState` keeps the first recorded error (GL 4.5 core §2.3.1) and the debug messages.

use crate::api::enums;

/// A GL error, with the reason a call failed (the reason goes to the debug log).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GlError {
    #[error("GL_INVALID_ENUM: {0}")]
    InvalidEnum(&'static str),
    #[error("GL_INVALID_VALUE: {0}")]
    InvalidValue(&'static str),
    #[error("GL_INVALID_OPERATION: {0}")]
    InvalidOperation(&'static str),
    #[error("GL_INVALID_FRAMEBUFFER_OPERATION: {0}")]
    InvalidFramebufferOperation(&'static str),
    #[error("GL_OUT_OF_MEMORY: {0}")]
    OutOfMemory(&'static str),
}

impl GlError {
    /// The GL error code (`GL_INVALID_ENUM`, ...).
    pub fn code(self) -> u32 {
        match self {
            GlError::InvalidEnum(_) => enums::INVALID_ENUM,
            GlError::InvalidValue(_) => enums::INVALID_VALUE,
            GlError::InvalidOperation(_) => enums::INVALID_OPERATION,
            GlError::InvalidFramebufferOperation(_) => enums::INVALID_FRAMEBUFFER_OPERATION,
            GlError::OutOfMemory(_) => enums::OUT_OF_MEMORY,
        }
    }
}

/// Shorthand used by every entry point: `Result<T, GlError>`.
pub type GlResult<T> = Result<T, GlError>;

/// One KHR_debug message (GL 4.5 core §20): source, type, id, severity, text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugMessage {
    pub source: u32,
    pub ty: u32,
    pub id: u32,
    pub severity: u32,
    pub message: String,
}

/// KHR_debug's `GL_MAX_DEBUG_LOGGED_MESSAGES`: once the log is full, new messages are
/// dropped (KHR_debug §5.5.4), so an application that never drains cannot grow memory.
pub const MAX_DEBUG_LOGGED_MESSAGES: usize = 1024;

/// The error flag and the debug message log of one context.
#[derive(Debug, Default)]
pub struct ErrorState {
    /// The first error recorded since the last `get_error` (GL 4.5 core §2.3.1: further
    /// errors are not recorded until it is read).
    first: Option<GlError>,
    log: Vec<DebugMessage>,
}

impl ErrorState {
    /// Records `e`: kept only when no error is pending; always logged.
    pub fn record(&mut self, e: GlError) {
        if self.first.is_none() {
            self.first = Some(e);
        }
        self.push(DebugMessage {
            source: enums::DEBUG_SOURCE_API,
            ty: enums::DEBUG_TYPE_ERROR,
            id: e.code(),
            severity: enums::DEBUG_SEVERITY_HIGH,
            message: e.to_string(),
        });
    }
    /// glGetError: the first recorded error, cleared.
    pub fn take(&mut self) -> u32 {
        self.first.take().map_or(enums::NO_ERROR, GlError::code)
    }
    pub fn push(&mut self, m: DebugMessage) {
        if self.log.len() < MAX_DEBUG_LOGGED_MESSAGES {
            self.log.push(m);
        }
    }
    pub fn drain(&mut self) -> Vec<DebugMessage> {
        std::mem::take(&mut self.log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_error_is_kept_until_read() {
        let mut s = ErrorState::default();
        assert_eq!(s.take(), enums::NO_ERROR);
        s.record(GlError::InvalidValue("a"));
        s.record(GlError::InvalidEnum("b"));
        assert_eq!(s.take(), enums::INVALID_VALUE);
        assert_eq!(s.take(), enums::NO_ERROR);
        let log = s.drain();
        assert_eq!(log.len(), 2);
        assert!(log[1].message.contains("GL_INVALID_ENUM: b"));
        assert!(s.drain().is_empty());
    }

    #[test]
    fn log_is_capped() {
        let mut s = ErrorState::default();
        for _ in 0..MAX_DEBUG_LOGGED_MESSAGES + 10 {
            s.record(GlError::OutOfMemory("x"));
        }
        assert_eq!(s.drain().len(), MAX_DEBUG_LOGGED_MESSAGES);
    }
}
