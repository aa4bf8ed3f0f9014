//! The one entry path of every GL command (issue #8 item 3): [`Context::dispatch`] checks
//! the share group's objects out, runs the command's body, contains a panic, records the
//! body's error under the command's name, and checks the objects back in. A command's
//! body is its GL logic only: `fn try_x(&mut self, ...) -> GlResult<T>`, errors by `?`.
//!
//! Both entry paths reach it:
//! - the Rust API: [`gl_commands!`] declares each public `Context` method (`depth_func`) in
//!   one line that names its GL command and its body, and expands to a method that calls
//!   the dispatcher;
//! - the C ABI (`gl/mod.rs` `with_current`): after the current-context lookup and the lock,
//!   the generated shim runs the command's marshalling function inside the dispatcher under
//!   the C name (`glDepthRangef`), so errors found while marshalling carry it too. The Rust
//!   method the marshalling calls then dispatches *nested*: it checks the group out (the
//!   outer call leaves that to it, [`Group::ByBody`]) and runs its body, while the outer
//!   call names the command and catches panics: errors carry the name the application
//!   called.
//!
//! Costs per call (the hot path of small draws): one uncontended mutex and two swaps of
//! the group's table headers (as `with_group` had), a `catch_unwind` (free unless a panic
//! unwinds), and a `&'static str` store; the message text is only formatted on an error.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::api::error::GlResult;
use crate::api::Context;

/// Whether the dispatcher checks the share group's objects out for a command's whole body.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// Checked out around the body: `self.objs` holds the group's objects (nearly every
    /// command).
    CheckedOut,
    /// The body takes the group itself, in phases (`with_group`): glCompileShader and
    /// glLinkProgram run the front end and the JIT between them, so that a link in one
    /// context does not stall the other contexts of the group; and the C marshalling, whose
    /// Rust command checks the group out when it dispatches (nested).
    ByBody,
}

impl Context {
    /// Runs the GL command `name` ("glDepthFunc"): `body`'s value, or `default()` when it
    /// failed (the error is recorded, naming `name`) or panicked. `group` says whether the
    /// share group's objects are checked out around `body` ([`Group`]).
    ///
    /// A panic in `body` is contained: it becomes GL_OUT_OF_MEMORY (GL 4.5
    /// core §2.3.1: the state after it is undefined, the honest description of an
    /// interrupted command) plus a high-severity debug message naming the command, the
    /// group's objects are back in the group (`with_group` unwinds through its swap), and
    /// later calls work. Called inside another command (a body or the C marshalling calling
    /// a command), it runs `body` directly: the outer call names the command and catches
    /// panics, so errors carry the name the application called.
    pub(crate) fn dispatch<T>(
        &mut self,
        name: &'static str,
        group: Group,
        default: impl FnOnce() -> T,
        body: impl FnOnce(&mut Context) -> GlResult<T>,
    ) -> T {
        if self.in_command {
            let r = match group {
                Group::CheckedOut => self.with_group(body),
                Group::ByBody => body(self),
            };
            return match r {
                Ok(v) => v,
                Err(e) => {
                    self.errors.record(e);
                    default()
                }
            };
        }
        // A reset context runs nothing but glGetError and glGetGraphicsResetStatus
        // (GL 4.5 core §2.3.1, `api/robustness.rs`).
        if self.robustness.lost && !crate::api::robustness::runs_when_lost(name) {
            self.errors.command = name;
            self.errors.record(crate::api::error::GlError::ContextLost(
                "the context was reset",
            ));
            self.errors.command = "";
            return default();
        }
        self.in_command = true;
        self.errors.command = name;
        // One catch per call: the group is swapped in outside it, so the unwind stops
        // before the swap back (`checked_out`), and nothing else can unwind past here.
        let r = match group {
            Group::CheckedOut if !self.group_held => {
                self.checked_out(|ctx| catch_unwind(AssertUnwindSafe(|| body(ctx))))
            }
            // ByBody, or the group already held (a `with_group` caller outside any command).
            _ => catch_unwind(AssertUnwindSafe(|| body(self))),
        };
        self.in_command = false;
        let v = match r {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                self.errors.record(e);
                default()
            }
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".into());
                self.record_internal_panic(name, &what);
                default()
            }
        };
        self.errors.command = "";
        v
    }
}

/// Declares public `Context` methods, one line per GL command, each calling the dispatcher
/// with its GL name and its body:
///
/// ```ignore
/// gl_commands! {
///     /// glDepthFunc (GL 4.5 core §17.3.6).
///     "glDepthFunc" fn depth_func(func: u32) = try_depth_func;
/// }
/// ```
///
/// expands to `pub fn depth_func(&mut self, func: u32) { self.dispatch("glDepthFunc",
/// Group::CheckedOut, Default::default, |ctx| ctx.try_depth_func(func)) }`. The body, `fn try_depth_func(&mut self, func: u32)
/// -> GlResult<()>`, is `pub(crate)`: it must run inside the dispatcher, which checks the
/// share group's objects out for it. A return type without `Default` (a mapped pointer)
/// names the failed call's value: `= try_map_buffer else std::ptr::null_mut();`. A body
/// that takes the share group itself, in phases, says so: `= try_link_program, group by
/// body;` ([`Group::ByBody`]).
macro_rules! gl_commands {
    ($(
        $(#[$attr:meta])*
        $gl:literal fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
            = $body:ident $(else $default:expr)? $(, group $by:ident body)?;
    )*) => {
        impl $crate::api::Context {
            $(
                $(#[$attr])*
                pub fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
                    self.dispatch(
                        $gl,
                        gl_commands!(@group $($by)?),
                        gl_commands!(@default $($default)?),
                        |ctx| ctx.$body($($arg),*),
                    )
                }
            )*
        }
    };
    (@group) => { $crate::api::dispatch::Group::CheckedOut };
    (@group by) => { $crate::api::dispatch::Group::ByBody };
    (@default) => { Default::default };
    (@default $default:expr) => { || $default };
}
pub(crate) use gl_commands;

#[cfg(test)]
mod tests {
    use super::Group;
    use crate::api::error::{GlError, GlResult};
    use crate::api::Context;
    use crate::gl::enums as gl;

    /// A panic inside a command's body becomes GL_OUT_OF_MEMORY and a high-severity message
    /// naming the command; the group's objects are checked back in, so later calls (in this
    /// context and in another of its group) see them, and no lock is left poisoned.
    #[test]
    fn a_panic_in_a_body_is_contained() {
        let mut c = Context::new(2, 2);
        let other = Context::with_attribs(&Default::default(), Some(&c)).expect("context");
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.debug_messages();
        let group = Group::CheckedOut;
        let r = c.dispatch(
            "glTestPanic",
            group,
            || 0,
            |ctx| -> GlResult<u32> {
                assert!(ctx.group_held, "the body runs with the group checked out");
                assert!(ctx.in_command);
                panic!("boom in a body")
            },
        );
        assert_eq!(r, 0, "the failed call's default");
        assert!(!c.group_held && !c.in_command);
        assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
        let msgs = c.debug_messages();
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert_eq!(msgs[0].severity, gl::DEBUG_SEVERITY_HIGH);
        assert!(msgs[0].message.contains("glTestPanic"), "{msgs:?}");
        assert!(msgs[0].message.contains("boom in a body"), "{msgs:?}");
        // Later calls work and find the group's objects where they were.
        assert!(c.is_texture(t));
        assert!(other.is_texture(t));
        assert_eq!(c.get_texture_handle_arb(t + 100), 0);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        let msgs = c.debug_messages();
        assert!(
            msgs[0].message.starts_with("glGetTextureHandleARB: "),
            "the old command's name is gone: {msgs:?}"
        );
    }

    /// A command called from inside another (nested dispatch) records its errors under the
    /// outer command's name: the one the application called.
    #[test]
    fn nested_commands_keep_the_outer_name() {
        let mut c = Context::new(2, 2);
        c.debug_messages();
        c.dispatch(
            "glOuter",
            Group::CheckedOut,
            || (),
            |ctx| {
                ctx.make_texture_handle_resident_arb(5);
                Ok(())
            },
        );
        c.dispatch(
            "glOuter2",
            Group::ByBody,
            || (),
            |_| -> GlResult<()> { Err(GlError::InvalidValue("why")) },
        );
        let msgs: Vec<String> = c.debug_messages().into_iter().map(|m| m.message).collect();
        assert_eq!(
            msgs,
            [
                "glOuter: GL_INVALID_OPERATION: not a texture handle",
                "glOuter2: GL_INVALID_VALUE: why"
            ]
        );
    }
}
