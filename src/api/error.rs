//! GL errors and the KHR_debug-style message log: `GlError` maps 1:1 to the GL error codes,
//! `ErrorState` keeps the first recorded error (GL 4.5 core §2.3.1) and the KHR_debug state
//! (GL 4.5 core §20): enable, message controls, groups, callback, log, object labels. The
//! `impl Context` block at the end holds the KHR_debug entry points.

use crate::api::dispatch::gl_commands;
use crate::api::Context;
use crate::gl::enums;

/// A GL error, with the reason a call failed (the reason goes to the debug log).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GlError {
    #[error("GL_INVALID_ENUM: {0}")]
    InvalidEnum(&'static str),
    /// GL_INVALID_ENUM naming the refused value: `BadEnum("depth function", v)` reads
    /// "GL_INVALID_ENUM: depth function GL_TEXTURE_2D".
    #[error("GL_INVALID_ENUM: {0} {name}", name = crate::gl::enums::describe(*.1))]
    BadEnum(&'static str, u32),
    #[error("GL_INVALID_VALUE: {0}")]
    InvalidValue(&'static str),
    #[error("GL_INVALID_OPERATION: {0}")]
    InvalidOperation(&'static str),
    /// GL_INVALID_OPERATION naming two values that do not go together:
    /// `BadPair("not accepted together", ("format", f), ("type", t))` reads
    /// "GL_INVALID_OPERATION: not accepted together: format GL_RGBA, type GL_UNSIGNED_SHORT_5_6_5".
    #[error(
        "GL_INVALID_OPERATION: {0}: {an} {a}, {bn} {b}",
        an = .1.0, a = crate::gl::enums::describe(.1.1), bn = .2.0, b = crate::gl::enums::describe(.2.1)
    )]
    BadPair(&'static str, (&'static str, u32), (&'static str, u32)),
    #[error("GL_INVALID_FRAMEBUFFER_OPERATION: {0}")]
    InvalidFramebufferOperation(&'static str),
    #[error("GL_OUT_OF_MEMORY: {0}")]
    OutOfMemory(&'static str),
    /// GL_OUT_OF_MEMORY naming the amount asked for: `OutOfMemoryFor(1 << 40, "bytes")`
    /// reads "GL_OUT_OF_MEMORY: 1099511627776 bytes".
    #[error("GL_OUT_OF_MEMORY: {0} {1}")]
    OutOfMemoryFor(u64, &'static str),
    #[error("GL_STACK_OVERFLOW: {0}")]
    StackOverflow(&'static str),
    #[error("GL_STACK_UNDERFLOW: {0}")]
    StackUnderflow(&'static str),
    /// The context was reset (GL 4.5 core §2.3.1, KHR_robustness): every command but
    /// glGetError and glGetGraphicsResetStatus fails with it (`api/robustness.rs`).
    #[error("GL_CONTEXT_LOST: {0}")]
    ContextLost(&'static str),
}

impl GlError {
    /// The GL error code (`GL_INVALID_ENUM`, ...).
    pub fn code(self) -> u32 {
        match self {
            GlError::InvalidEnum(_) | GlError::BadEnum(..) => enums::INVALID_ENUM,
            GlError::InvalidValue(_) => enums::INVALID_VALUE,
            GlError::InvalidOperation(_) | GlError::BadPair(..) => enums::INVALID_OPERATION,
            GlError::InvalidFramebufferOperation(_) => enums::INVALID_FRAMEBUFFER_OPERATION,
            GlError::OutOfMemory(_) | GlError::OutOfMemoryFor(..) => enums::OUT_OF_MEMORY,
            GlError::StackOverflow(_) => enums::STACK_OVERFLOW,
            GlError::StackUnderflow(_) => enums::STACK_UNDERFLOW,
            GlError::ContextLost(_) => enums::CONTEXT_LOST,
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
/// `GL_MAX_DEBUG_MESSAGE_LENGTH`, the terminating NUL included; longer messages are cut.
pub const MAX_DEBUG_MESSAGE_LENGTH: usize = 4096;
/// `GL_MAX_DEBUG_GROUP_STACK_DEPTH` (GL 4.5 core table 23.86 minimum: 64), the default
/// group included.
pub const MAX_DEBUG_GROUP_STACK_DEPTH: usize = 64;
/// `GL_MAX_LABEL_LENGTH` (minimum 256), the terminating NUL included.
pub const MAX_LABEL_LENGTH: usize = 256;
/// At most this many DebugMessageControl rules per group; a rule that covers every message
/// clears the ones before it, so only ID-specific rules can pile up.
const MAX_CONTROL_RULES: usize = 4096;

/// The application's debug callback (glDebugMessageCallback): called once per message that
/// passes the filters, on the thread that raised it or (worker-thread messages) at the next
/// GL call on the API thread.
pub type DebugCallback = Box<dyn FnMut(&DebugMessage) + Send>;

/// One glDebugMessageControl call (GL 4.5 core §20.4); `None` is GL_DONT_CARE.
#[derive(Clone, Debug)]
struct ControlRule {
    source: Option<u32>,
    ty: Option<u32>,
    severity: Option<u32>,
    /// Empty: every id.
    ids: Vec<u32>,
    enabled: bool,
}

/// One level of the debug group stack (GL 4.5 core §20.6): each group has its own copy of
/// the message controls, restored when the group is popped.
#[derive(Clone, Debug)]
struct DebugGroup {
    source: u32,
    id: u32,
    message: String,
    rules: Vec<ControlRule>,
}

/// The error flag and the debug output state of one context (KHR_debug, GL 4.5 core §20).
pub struct ErrorState {
    /// The first error recorded since the last `get_error` (GL 4.5 core §2.3.1: further
    /// errors are not recorded until it is read).
    first: Option<GlError>,
    /// Errors recorded so far (reported or not): lets C getters skip writing their output
    /// when the call failed (commands that fail have no side effects, GL 4.5 core §2.3.1).
    recorded: u64,
    log: Vec<DebugMessage>,
    /// GL_DEBUG_OUTPUT. softgl always has its messages at hand, so it starts enabled
    /// (KHR_debug leaves non-debug contexts free to produce messages).
    pub output: bool,
    callback: Option<DebugCallback>,
    /// The C callback and user parameter as glGetPointerv reports them (addresses only).
    callback_pointers: (usize, usize),
    /// Never empty: index 0 is the default group.
    groups: Vec<DebugGroup>,
    /// Object labels (glObjectLabel) by (namespace enum, name). Deleted objects' labels
    /// are pruned once the map has doubled since the last pruning; names are generational
    /// (names.rs), so a new object does not inherit a stale label meanwhile.
    pub(crate) labels: std::collections::HashMap<(u32, u32), String>,
    /// The label count after the last pruning.
    pub(crate) labels_pruned_at: usize,
    /// The GL command running now ("glDepthFunc"; "" outside one), set by the dispatcher
    /// (`api/dispatch.rs`): recorded errors name it.
    pub(crate) command: &'static str,
}

impl Default for ErrorState {
    fn default() -> Self {
        ErrorState {
            first: None,
            recorded: 0,
            log: Vec::new(),
            output: true,
            callback: None,
            callback_pointers: (0, 0),
            groups: vec![DebugGroup {
                source: enums::DEBUG_SOURCE_APPLICATION,
                id: 0,
                message: String::new(),
                rules: Vec::new(),
            }],
            labels: Default::default(),
            labels_pruned_at: 0,
            command: "",
        }
    }
}

impl std::fmt::Debug for ErrorState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorState")
            .field("first", &self.first)
            .field("logged", &self.log.len())
            .field("output", &self.output)
            .field("callback", &self.callback.is_some())
            .field("groups", &self.groups.len())
            .finish()
    }
}

/// Whether `SOFTGL_DEBUG` names `gl`: every recorded GL error is then also printed to
/// stderr (read once), for programs that never call glGetError or install a callback.
fn log_gl_errors() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("SOFTGL_DEBUG").is_ok_and(|v| v.split(',').any(|s| s.trim() == "gl"))
    })
}

impl ErrorState {
    /// Records `e`: kept only when no error is pending; always reported as a message, which
    /// names the running command when there is one (`glDepthFunc: GL_INVALID_ENUM: ...`).
    pub fn record(&mut self, e: GlError) {
        let message = if self.command.is_empty() {
            e.to_string()
        } else {
            format!("{}: {e}", self.command)
        };
        self.record_with_message(e, message);
    }
    /// Records `e` with `detail` after its reason (the value that was refused, by its GL
    /// name): `glGetIntegerv: GL_INVALID_ENUM: glGet parameter GL_MAX_UNIFORM_LOCATIONS`.
    pub fn record_detail(&mut self, e: GlError, detail: impl std::fmt::Display) {
        let message = if self.command.is_empty() {
            format!("{e} {detail}")
        } else {
            format!("{}: {e} {detail}", self.command)
        };
        self.record_with_message(e, message);
    }
    /// Records `e` with a debug message text other than its reason.
    pub fn record_with_message(&mut self, e: GlError, message: String) {
        if log_gl_errors() {
            eprintln!("softgl: {message}");
        }
        self.recorded += 1;
        if self.first.is_none() {
            self.first = Some(e);
        }
        self.push(DebugMessage {
            source: enums::DEBUG_SOURCE_API,
            ty: enums::DEBUG_TYPE_ERROR,
            id: e.code(),
            severity: enums::DEBUG_SEVERITY_HIGH,
            message,
        });
    }
    /// How many errors were ever recorded (compare before and after a call).
    pub fn recorded(&self) -> u64 {
        self.recorded
    }
    /// glGetError: the first recorded error, cleared.
    pub fn take(&mut self) -> u32 {
        self.first.take().map_or(enums::NO_ERROR, GlError::code)
    }
    /// Whether the current group's controls let `m` through (GL 4.5 core §20.4: the last
    /// matching DebugMessageControl wins; by default everything but LOW severity passes).
    pub fn enabled(&self, m: &DebugMessage) -> bool {
        let mut on = m.severity != enums::DEBUG_SEVERITY_LOW;
        let rules = &self.groups[self.groups.len() - 1].rules;
        for r in rules {
            if r.source.is_none_or(|s| s == m.source)
                && r.ty.is_none_or(|t| t == m.ty)
                && r.severity.is_none_or(|s| s == m.severity)
                && (r.ids.is_empty() || r.ids.contains(&m.id))
            {
                on = r.enabled;
            }
        }
        on
    }
    /// `push`, and printed to stderr when `SOFTGL_DEBUG` names `gl` (as recorded errors
    /// are): for messages about what the application did that are not GL errors.
    pub fn push_printed(&mut self, m: DebugMessage) {
        if log_gl_errors() {
            eprintln!("softgl: {}", m.message);
        }
        self.push(m);
    }
    /// Generates a message (GL 4.5 core §20.1): dropped when DEBUG_OUTPUT is off or the
    /// controls filter it; handed to the callback when one is set, else logged.
    pub fn push(&mut self, mut m: DebugMessage) {
        if !self.output || !self.enabled(&m) {
            return;
        }
        if m.message.len() >= MAX_DEBUG_MESSAGE_LENGTH {
            let mut cut = MAX_DEBUG_MESSAGE_LENGTH - 1;
            while !m.message.is_char_boundary(cut) {
                cut -= 1;
            }
            m.message.truncate(cut);
        }
        if let Some(cb) = self.callback.as_mut() {
            // A Rust callback that panics must not unwind through the GL call (nor across
            // the C boundary): it is removed, and the message and the failure are logged.
            let delivered =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cb(&m))).is_ok();
            if !delivered {
                self.set_callback(None, (0, 0));
                self.log_message(m);
                self.log_message(DebugMessage {
                    source: enums::DEBUG_SOURCE_API,
                    ty: enums::DEBUG_TYPE_ERROR,
                    id: 0,
                    severity: enums::DEBUG_SEVERITY_HIGH,
                    message: "the debug callback panicked and was removed".into(),
                });
            }
        } else {
            self.log_message(m);
        }
    }
    fn log_message(&mut self, m: DebugMessage) {
        if self.log.len() < MAX_DEBUG_LOGGED_MESSAGES {
            self.log.push(m);
        }
    }
    /// Every logged message, oldest first; the log is emptied.
    pub fn drain(&mut self) -> Vec<DebugMessage> {
        std::mem::take(&mut self.log)
    }
    /// Takes up to `count` logged messages, oldest first, while `fits` accepts each
    /// (glGetDebugMessageLog stops at the first message its buffer cannot hold).
    pub fn take_logged(
        &mut self,
        count: usize,
        mut fits: impl FnMut(&DebugMessage) -> bool,
    ) -> Vec<DebugMessage> {
        let mut n = 0;
        while n < count.min(self.log.len()) && fits(&self.log[n]) {
            n += 1;
        }
        self.log.drain(..n).collect()
    }
    /// DEBUG_LOGGED_MESSAGES.
    pub fn logged(&self) -> usize {
        self.log.len()
    }
    /// DEBUG_NEXT_LOGGED_MESSAGE_LENGTH: the oldest message's length with its NUL, or 0.
    pub fn next_length(&self) -> usize {
        self.log.first().map_or(0, |m| m.message.len() + 1)
    }
    /// Sets (or clears) the callback; `pointers` are what glGetPointerv reports for
    /// DEBUG_CALLBACK_FUNCTION and DEBUG_CALLBACK_USER_PARAM.
    pub fn set_callback(&mut self, cb: Option<DebugCallback>, pointers: (usize, usize)) {
        self.callback = cb;
        self.callback_pointers = if self.callback.is_some() {
            pointers
        } else {
            (0, 0)
        };
    }
    pub fn callback_pointers(&self) -> (usize, usize) {
        self.callback_pointers
    }
    /// glDebugMessageControl, its arguments already validated.
    pub fn control(
        &mut self,
        source: Option<u32>,
        ty: Option<u32>,
        severity: Option<u32>,
        ids: &[u32],
        enabled: bool,
    ) -> GlResult<()> {
        let top = self.groups.len() - 1;
        let rules = &mut self.groups[top].rules;
        if source.is_none() && ty.is_none() && severity.is_none() && ids.is_empty() {
            // Covers every message: the rules before it can no longer matter.
            rules.clear();
        }
        if rules.len() >= MAX_CONTROL_RULES {
            return Err(GlError::OutOfMemory("too many debug message controls"));
        }
        rules.push(ControlRule {
            source,
            ty,
            severity,
            ids: ids.to_vec(),
            enabled,
        });
        Ok(())
    }
    /// glPushDebugGroup, validated: the new group copies the current controls, and the
    /// push is reported as a DEBUG_TYPE_PUSH_GROUP message (GL 4.5 core §20.6).
    pub fn push_group(&mut self, source: u32, id: u32, message: String) -> GlResult<()> {
        if self.groups.len() >= MAX_DEBUG_GROUP_STACK_DEPTH {
            return Err(GlError::StackOverflow("debug group stack is full"));
        }
        let rules = self.groups[self.groups.len() - 1].rules.clone();
        self.push(DebugMessage {
            source,
            ty: enums::DEBUG_TYPE_PUSH_GROUP,
            id,
            severity: enums::DEBUG_SEVERITY_NOTIFICATION,
            message: message.clone(),
        });
        self.groups.push(DebugGroup {
            source,
            id,
            message,
            rules,
        });
        Ok(())
    }
    /// glPopDebugGroup: restores the outer group's controls, then reports the pop as a
    /// DEBUG_TYPE_POP_GROUP message with the popped group's source, id and text.
    pub fn pop_group(&mut self) -> GlResult<()> {
        if self.groups.len() <= 1 {
            return Err(GlError::StackUnderflow("no debug group to pop"));
        }
        let Some(g) = self.groups.pop() else {
            return Err(GlError::StackUnderflow("no debug group to pop"));
        };
        self.push(DebugMessage {
            source: g.source,
            ty: enums::DEBUG_TYPE_POP_GROUP,
            id: g.id,
            severity: enums::DEBUG_SEVERITY_NOTIFICATION,
            message: g.message,
        });
        Ok(())
    }
    /// DEBUG_GROUP_STACK_DEPTH (the default group counts).
    pub fn group_depth(&self) -> usize {
        self.groups.len()
    }
    /// glObjectLabel's store; an empty label removes it.
    pub fn set_label(&mut self, identifier: u32, name: u32, label: Option<String>) {
        match label {
            Some(l) if !l.is_empty() => {
                self.labels.insert((identifier, name), l);
            }
            _ => {
                self.labels.remove(&(identifier, name));
            }
        }
    }
    pub fn label(&self, identifier: u32, name: u32) -> &str {
        self.labels
            .get(&(identifier, name))
            .map_or("", String::as_str)
    }
}

/// Whether `v` names a debug source (GL 4.5 core table 20.1).
fn is_source(v: u32) -> bool {
    matches!(
        v,
        enums::DEBUG_SOURCE_API
            | enums::DEBUG_SOURCE_WINDOW_SYSTEM
            | enums::DEBUG_SOURCE_SHADER_COMPILER
            | enums::DEBUG_SOURCE_THIRD_PARTY
            | enums::DEBUG_SOURCE_APPLICATION
            | enums::DEBUG_SOURCE_OTHER
    )
}

/// Whether `v` names a debug message type (GL 4.5 core table 20.2).
fn is_type(v: u32) -> bool {
    matches!(
        v,
        enums::DEBUG_TYPE_ERROR
            | enums::DEBUG_TYPE_DEPRECATED_BEHAVIOR
            | enums::DEBUG_TYPE_UNDEFINED_BEHAVIOR
            | enums::DEBUG_TYPE_PERFORMANCE
            | enums::DEBUG_TYPE_PORTABILITY
            | enums::DEBUG_TYPE_MARKER
            | enums::DEBUG_TYPE_PUSH_GROUP
            | enums::DEBUG_TYPE_POP_GROUP
            | enums::DEBUG_TYPE_OTHER
    )
}

/// Whether `v` names a debug severity (GL 4.5 core table 20.3).
fn is_severity(v: u32) -> bool {
    matches!(
        v,
        enums::DEBUG_SEVERITY_HIGH
            | enums::DEBUG_SEVERITY_MEDIUM
            | enums::DEBUG_SEVERITY_LOW
            | enums::DEBUG_SEVERITY_NOTIFICATION
    )
}

/// `DONT_CARE` → `None`, a valid value → `Some`, anything else → INVALID_ENUM.
fn dont_care(v: u32, valid: fn(u32) -> bool, what: &'static str) -> GlResult<Option<u32>> {
    if v == enums::DONT_CARE {
        Ok(None)
    } else if valid(v) {
        Ok(Some(v))
    } else {
        Err(GlError::InvalidEnum(what))
    }
}

/// Application-generated messages: GL 4.5 core §20.5/§20.6 allow only these two sources.
fn check_app_source(source: u32) -> GlResult<()> {
    if matches!(
        source,
        enums::DEBUG_SOURCE_APPLICATION | enums::DEBUG_SOURCE_THIRD_PARTY
    ) {
        Ok(())
    } else {
        Err(GlError::InvalidEnum(
            "source must be APPLICATION or THIRD_PARTY",
        ))
    }
}

gl_commands! {
    /// glDebugMessageControl (GL 4.5 core §20.4). `ids` may be non-empty only with a
    /// specific source and type and DONT_CARE severity.
    "glDebugMessageControl"
    fn debug_message_control(source: u32, ty: u32, severity: u32, ids: &[u32], enabled: bool)
        = try_debug_message_control;
    /// glDebugMessageInsert (GL 4.5 core §20.5).
    "glDebugMessageInsert"
    fn debug_message_insert(source: u32, ty: u32, id: u32, severity: u32, message: &str)
        = try_debug_message_insert;
    /// glPushDebugGroup (GL 4.5 core §20.6).
    "glPushDebugGroup"
    fn push_debug_group(source: u32, id: u32, message: &str) = try_push_debug_group;
    /// glPopDebugGroup.
    "glPopDebugGroup" fn pop_debug_group() = try_pop_debug_group;
    /// glObjectLabel (GL 4.5 core §20.7); `None` or "" removes the label.
    "glObjectLabel"
    fn object_label(identifier: u32, name: u32, label: Option<&str>) = try_object_label;
    /// glGetObjectLabel: the label ("" when none).
    "glGetObjectLabel"
    fn get_object_label(identifier: u32, name: u32) -> String = try_get_object_label;
    /// glGetPointerv(DEBUG_CALLBACK_FUNCTION / DEBUG_CALLBACK_USER_PARAM), as addresses.
    "glGetPointerv" fn get_pointerv(pname: u32) -> usize = try_get_pointerv, group by body;
    /// glGetDebugMessageLog (GL 4.5 core §20.9): up to `count` oldest messages, removed
    /// from the log; with `buf_size` (a text buffer was given) it stops at the first
    /// message whose text and NUL no longer fit.
    "glGetDebugMessageLog"
    fn get_debug_message_log(count: u32, buf_size: Option<usize>) -> Vec<DebugMessage>
        = try_get_debug_message_log, group by body;
}

/// KHR_debug (GL 4.5 core chapter 20) entry points.
impl Context {
    /// glDebugMessageCallback for Rust callers: `cb` receives every message that passes the
    /// controls, instead of the log (GL 4.5 core §20.2). Messages raised by sampler worker
    /// threads arrive at the next GL call through the C ABI, or for Rust callers at the next
    /// [`Context::deliver_debug_messages`] or [`Context::debug_messages`].
    pub fn debug_message_callback(&mut self, cb: Option<DebugCallback>) {
        self.errors.set_callback(cb, (0, 0));
    }

    /// Sets the callback with the C function and user pointers glGetPointerv reports.
    pub fn debug_message_callback_with_pointers(
        &mut self,
        cb: Option<DebugCallback>,
        function: usize,
        user_param: usize,
    ) {
        self.errors.set_callback(cb, (function, user_param));
    }

    pub(crate) fn try_get_pointerv(&mut self, pname: u32) -> GlResult<usize> {
        let (f, p) = self.errors.callback_pointers();
        match pname {
            enums::DEBUG_CALLBACK_FUNCTION => Ok(f),
            enums::DEBUG_CALLBACK_USER_PARAM => Ok(p),
            _ => Err(GlError::BadEnum("pointer name", pname)),
        }
    }

    /// Moves the messages the sampler's workers raised (stale or non-resident bindless
    /// handles) into the debug output: to the callback, or the log. The C entry points call
    /// this after every command.
    pub fn deliver_debug_messages(&mut self) {
        let sampled: Vec<String> = match self.sampler_debug.lock() {
            Ok(mut v) => std::mem::take(&mut *v),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        for message in sampled {
            self.errors.push(DebugMessage {
                source: enums::DEBUG_SOURCE_API,
                ty: enums::DEBUG_TYPE_UNDEFINED_BEHAVIOR,
                id: 1,
                severity: enums::DEBUG_SEVERITY_HIGH,
                message,
            });
        }
    }

    /// A Rust panic caught at the C boundary in `entry`: GL_OUT_OF_MEMORY (the command did
    /// not finish and the spec's word for that state is "undefined") and a high-severity
    /// message naming the command and the panic.
    pub fn record_internal_panic(&mut self, entry: &str, what: &str) {
        self.errors.record_with_message(
            GlError::OutOfMemory("internal error"),
            format!("softgl internal error in {entry}: {what} (state may be inconsistent)"),
        );
    }

    /// What the entry point of a GL command softgl does not implement yet does:
    /// GL_INVALID_OPERATION and a high-severity message "glX is not implemented by softgl
    /// yet", so a program that depends on it fails loudly instead of drawing nothing.
    pub fn not_implemented(&mut self, command: &str) {
        self.errors.record_with_message(
            GlError::InvalidOperation("not implemented"),
            format!("{command} is not implemented by softgl yet (GL_INVALID_OPERATION)"),
        );
    }

    pub(crate) fn try_debug_message_control(
        &mut self,
        source: u32,
        ty: u32,
        severity: u32,
        ids: &[u32],
        enabled: bool,
    ) -> GlResult<()> {
        let s = dont_care(source, is_source, "debug source")?;
        let t = dont_care(ty, is_type, "debug type")?;
        let v = dont_care(severity, is_severity, "debug severity")?;
        if !ids.is_empty() && (s.is_none() || t.is_none() || v.is_some()) {
            return Err(GlError::InvalidOperation(
                "ids need a source and type and DONT_CARE severity",
            ));
        }
        self.errors.control(s, t, v, ids, enabled)
    }

    pub(crate) fn try_debug_message_insert(
        &mut self,
        source: u32,
        ty: u32,
        id: u32,
        severity: u32,
        message: &str,
    ) -> GlResult<()> {
        check_app_source(source)?;
        if !is_type(ty) {
            return Err(GlError::InvalidEnum("debug type"));
        }
        if !is_severity(severity) {
            return Err(GlError::InvalidEnum("debug severity"));
        }
        if message.len() >= MAX_DEBUG_MESSAGE_LENGTH {
            return Err(GlError::InvalidValue(
                "message longer than MAX_DEBUG_MESSAGE_LENGTH",
            ));
        }
        self.errors.push(DebugMessage {
            source,
            ty,
            id,
            severity,
            message: message.to_string(),
        });
        Ok(())
    }

    pub(crate) fn try_get_debug_message_log(
        &mut self,
        count: u32,
        buf_size: Option<usize>,
    ) -> GlResult<Vec<DebugMessage>> {
        self.deliver_debug_messages();
        let mut room = buf_size;
        Ok(self
            .errors
            .take_logged(count as usize, |m| match room.as_mut() {
                None => true,
                Some(r) if *r > m.message.len() => {
                    *r -= m.message.len() + 1;
                    true
                }
                Some(_) => false,
            }))
    }

    pub(crate) fn try_push_debug_group(
        &mut self,
        source: u32,
        id: u32,
        message: &str,
    ) -> GlResult<()> {
        check_app_source(source).and_then(|()| {
            if message.len() >= MAX_DEBUG_MESSAGE_LENGTH {
                return Err(GlError::InvalidValue(
                    "message longer than MAX_DEBUG_MESSAGE_LENGTH",
                ));
            }
            self.errors.push_group(source, id, message.to_string())
        })
    }

    pub(crate) fn try_pop_debug_group(&mut self) -> GlResult<()> {
        self.errors.pop_group()
    }

    /// Whether `name` is an existing object in `identifier`'s namespace (glObjectLabel's
    /// check); INVALID_ENUM for an identifier that is no namespace.
    fn label_target_exists(&mut self, identifier: u32, name: u32) -> GlResult<bool> {
        Ok(match identifier {
            enums::BUFFER => self.is_buffer(name),
            enums::SHADER => self.is_shader(name),
            enums::PROGRAM => self.is_program(name),
            enums::VERTEX_ARRAY => self.is_vertex_array(name),
            enums::SAMPLER => self.is_sampler(name),
            enums::TEXTURE => self.is_texture(name),
            enums::RENDERBUFFER => self.is_renderbuffer(name),
            enums::FRAMEBUFFER => self.is_framebuffer(name),
            // Namespaces softgl has no objects in yet.
            enums::QUERY | enums::PROGRAM_PIPELINE | enums::TRANSFORM_FEEDBACK => false,
            _ => return Err(GlError::BadEnum("object label identifier", identifier)),
        })
    }

    pub(crate) fn try_object_label(
        &mut self,
        identifier: u32,
        name: u32,
        label: Option<&str>,
    ) -> GlResult<()> {
        self.label_target_exists(identifier, name).and_then(|ok| {
            if !ok {
                return Err(GlError::InvalidValue("no such object"));
            }
            if label.is_some_and(|l| l.len() >= MAX_LABEL_LENGTH) {
                return Err(GlError::InvalidValue("label longer than MAX_LABEL_LENGTH"));
            }
            if self.errors.labels.len() > 2 * self.errors.labels_pruned_at + 64 {
                let mut labels = std::mem::take(&mut self.errors.labels);
                labels.retain(|&(i, n), _| self.label_target_exists(i, n).unwrap_or(false));
                self.errors.labels_pruned_at = labels.len();
                self.errors.labels = labels;
            }
            self.errors
                .set_label(identifier, name, label.map(str::to_string));
            Ok(())
        })
    }

    pub(crate) fn try_get_object_label(&mut self, identifier: u32, name: u32) -> GlResult<String> {
        self.label_target_exists(identifier, name).and_then(|ok| {
            if ok {
                Ok(self.errors.label(identifier, name).to_string())
            } else {
                Err(GlError::InvalidValue("no such object"))
            }
        })
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

    fn msg(source: u32, ty: u32, id: u32, severity: u32) -> DebugMessage {
        DebugMessage {
            source,
            ty,
            id,
            severity,
            message: format!("m{id}"),
        }
    }

    #[test]
    fn controls_filter_and_everything_rule_resets() {
        let mut s = ErrorState::default();
        let app = enums::DEBUG_SOURCE_APPLICATION;
        let other = enums::DEBUG_TYPE_OTHER;
        s.push(msg(app, other, 1, enums::DEBUG_SEVERITY_LOW));
        s.push(msg(app, other, 2, enums::DEBUG_SEVERITY_MEDIUM));
        s.control(Some(app), Some(other), None, &[3], false)
            .unwrap();
        s.push(msg(app, other, 3, enums::DEBUG_SEVERITY_HIGH));
        s.push(msg(
            enums::DEBUG_SOURCE_THIRD_PARTY,
            other,
            3,
            enums::DEBUG_SEVERITY_HIGH,
        ));
        // A rule covering every message replaces the ones before it.
        s.control(None, None, None, &[], true).unwrap();
        s.push(msg(app, other, 3, enums::DEBUG_SEVERITY_HIGH));
        s.push(msg(app, other, 4, enums::DEBUG_SEVERITY_LOW));
        let ids: Vec<u32> = s.drain().iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![2, 3, 3, 4]);
        assert_eq!(s.groups[0].rules.len(), 1);
    }

    #[test]
    fn long_messages_are_cut_on_a_char_boundary() {
        let mut s = ErrorState::default();
        let mut m = msg(0, 0, 0, enums::DEBUG_SEVERITY_HIGH);
        m.message = "é".repeat(MAX_DEBUG_MESSAGE_LENGTH);
        s.push(m);
        let got = s.drain().remove(0).message;
        assert!(got.len() < MAX_DEBUG_MESSAGE_LENGTH);
        assert!(got.len() >= MAX_DEBUG_MESSAGE_LENGTH - 2);
        assert!(got.chars().all(|c| c == 'é'));
    }

    #[test]
    fn callback_takes_messages_instead_of_the_log() {
        use std::sync::{Arc, Mutex};
        let mut s = ErrorState::default();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s2 = seen.clone();
        s.set_callback(
            Some(Box::new(move |m: &DebugMessage| {
                s2.lock().unwrap().push(m.id)
            })),
            (1, 2),
        );
        assert_eq!(s.callback_pointers(), (1, 2));
        s.record(GlError::InvalidEnum("x"));
        assert_eq!(*seen.lock().unwrap(), vec![enums::INVALID_ENUM]);
        assert_eq!(s.logged(), 0);
        assert_eq!(
            s.take(),
            enums::INVALID_ENUM,
            "the error flag is independent"
        );
        s.set_callback(None, (1, 2));
        assert_eq!(s.callback_pointers(), (0, 0));
        s.output = false;
        s.record(GlError::InvalidValue("y"));
        assert_eq!(s.logged(), 0, "DEBUG_OUTPUT off: no message");
        assert_eq!(s.take(), enums::INVALID_VALUE);
    }
}
