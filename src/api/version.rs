//! The version policy: which GL (and GLSL) version softgl reports, and the context
//! attributes that select a version and profile (`Profile`, `ContextAttribs`,
//! `ContextError`, `supported_version`).
//!
//! GL_VERSION is honest (DESIGN.md §6): the highest version whose every feature works, which
//! today is the floor, 1.0, with a string that says it is incomplete. Like Mesa's
//! `MESA_GL_VERSION_OVERRIDE`, the environment variable `SOFTGL_GL_VERSION_OVERRIDE=X.Y`
//! makes softgl *claim* version X.Y, for running programs and suites that demand a version.
//! That is the user's explicit choice; softgl does not implement more because of it. The
//! variable is read once per context creation.

/// The environment variable that raises the claimed GL version (form `X.Y`, e.g. `4.5`).
pub const VERSION_OVERRIDE_VAR: &str = "SOFTGL_GL_VERSION_OVERRIDE";

/// The version reported without the override: no GL version is complete yet (see
/// `query::VERSION` for what is missing).
pub const HONEST_VERSION: (u32, u32) = (
    crate::api::query::VERSION_MAJOR as u32,
    crate::api::query::VERSION_MINOR as u32,
);

/// The highest version the override may claim: GL 4.6 is the last GL version.
const MAX_VERSION: (u32, u32) = (4, 6);

/// An OpenGL profile (GL 4.5 core §E.1; EGL 1.5 §3.7.1.1). Only meaningful for 3.2 and
/// later: below 3.2 EGL ignores the requested profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    Core,
    Compatibility,
}

/// What a context is created with (EGL_CONTEXT_MAJOR_VERSION, _MINOR_VERSION,
/// EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_DEBUG,
/// EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE).
#[derive(Clone, Debug)]
pub struct ContextAttribs {
    pub major: u32,
    pub minor: u32,
    pub profile: Profile,
    pub debug: bool,
    pub forward_compatible: bool,
}

impl Default for ContextAttribs {
    /// EGL 1.5 §3.7.1.1's defaults: version 1.0, no debug, not forward-compatible. The
    /// profile is ignored below 3.2, where a context is what its version implies: for 1.0,
    /// compatibility.
    fn default() -> Self {
        ContextAttribs {
            major: 1,
            minor: 0,
            profile: Profile::Compatibility,
            debug: false,
            forward_compatible: false,
        }
    }
}

/// Why a context cannot be created (the driver maps these to EGL errors).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    /// The requested version is above `supported_version()` (EGL_BAD_MATCH).
    #[error("OpenGL {major}.{minor} requested, softgl supports {supported_major}.{supported_minor} (set SOFTGL_GL_VERSION_OVERRIDE to claim more)")]
    VersionUnsupported {
        major: u32,
        minor: u32,
        supported_major: u32,
        supported_minor: u32,
    },
    /// The requested version does not exist (EGL_BAD_MATCH): e.g. 1.6, 2.2, 3.4, 5.0.
    #[error("OpenGL {major}.{minor} is not a GL version")]
    VersionInvalid { major: u32, minor: u32 },
    /// Forward-compatible contexts exist only for 3.0 and later (EGL_KHR_create_context).
    #[error("a forward-compatible context needs version 3.0 or later")]
    ForwardCompatibleBelow30,
    /// The share context belongs to another descriptor table / share group that cannot be
    /// joined (EGL_BAD_CONTEXT).
    #[error("the share context cannot be shared with: {0}")]
    BadShareContext(&'static str),
}

/// Whether `major.minor` names a published OpenGL version.
pub fn is_gl_version(major: u32, minor: u32) -> bool {
    matches!(
        (major, minor),
        (1, 0..=5) | (2, 0..=1) | (3, 0..=3) | (4, 0..=6)
    )
}

/// Parses the override's value: `X.Y` naming a GL version; anything else is ignored.
pub fn parse_override(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.trim().split_once('.')?;
    let v = (a.parse().ok()?, b.parse().ok()?);
    (is_gl_version(v.0, v.1) && v <= MAX_VERSION).then_some(v)
}

/// The override the environment asks for, if any (read at each call).
pub fn override_version() -> Option<(u32, u32)> {
    std::env::var(VERSION_OVERRIDE_VAR)
        .ok()
        .and_then(|s| parse_override(&s))
}

/// The GL version softgl reports (honest; raised only by SOFTGL_GL_VERSION_OVERRIDE).
pub fn supported_version() -> (u32, u32) {
    override_version().unwrap_or(HONEST_VERSION)
}

/// The GLSL version that goes with a GL version (GL 4.5 core §22.2's table of
/// SHADING_LANGUAGE_VERSION: 2.0 → 1.10, 2.1 → 1.20, 3.0 → 1.30, 3.1 → 1.40, 3.2 → 1.50,
/// 3.3 and later → the same number). GL 1.x has no GLSL: `None`.
pub fn glsl_version_for(major: u32, minor: u32) -> Option<(u32, u32)> {
    match (major, minor) {
        (2, 0) => Some((1, 10)),
        (2, 1) => Some((1, 20)),
        (3, 0) => Some((1, 30)),
        (3, 1) => Some((1, 40)),
        (3, 2) => Some((1, 50)),
        (m, n) if (m, n) >= (3, 3) => Some((m, n * 10)),
        _ => None,
    }
}

/// What one context reports: decided once, when it is created.
#[derive(Clone, Debug)]
pub(crate) struct Reported {
    pub attribs: ContextAttribs,
    pub major: u32,
    pub minor: u32,
    /// Whether the numbers come from SOFTGL_GL_VERSION_OVERRIDE.
    pub overridden: bool,
}

impl Reported {
    /// Checks `attribs` against `supported` and decides what the context reports.
    pub fn new(
        attribs: &ContextAttribs,
        override_: Option<(u32, u32)>,
    ) -> Result<Reported, ContextError> {
        let (major, minor) = (attribs.major, attribs.minor);
        if !is_gl_version(major, minor) {
            return Err(ContextError::VersionInvalid { major, minor });
        }
        let supported = override_.unwrap_or(HONEST_VERSION);
        if (major, minor) > supported {
            return Err(ContextError::VersionUnsupported {
                major,
                minor,
                supported_major: supported.0,
                supported_minor: supported.1,
            });
        }
        if attribs.forward_compatible && major < 3 {
            return Err(ContextError::ForwardCompatibleBelow30);
        }
        // EGL_KHR_create_context: the context may report any version at least as high as
        // the one asked for that is backward compatible with it; like Mesa, softgl reports
        // the highest it supports.
        Ok(Reported {
            attribs: attribs.clone(),
            major: supported.0,
            minor: supported.1,
            overridden: override_.is_some(),
        })
    }

    /// The profile that applies: profiles exist from 3.2 on (a request below 3.2 gets what
    /// the version implies, EGL 1.5 §3.7.1.1); `None` for a context reporting below 3.2.
    pub fn profile(&self) -> Option<Profile> {
        if (self.major, self.minor) < (3, 2) {
            return None;
        }
        if (self.attribs.major, self.attribs.minor) < (3, 2) {
            // A legacy request is satisfied by a compatibility context (it must stay
            // backward compatible with the version asked for).
            return Some(Profile::Compatibility);
        }
        Some(self.attribs.profile)
    }

    /// GL_VERSION.
    pub fn version_string(&self) -> String {
        if !self.overridden {
            return crate::api::query::VERSION.to_string();
        }
        let profile = match self.profile() {
            Some(Profile::Core) => " (Core Profile)",
            Some(Profile::Compatibility) => " (Compatibility Profile)",
            None => "",
        };
        format!(
            "{}.{}{} softgl {}",
            self.major,
            self.minor,
            profile,
            env!("CARGO_PKG_VERSION")
        )
    }

    /// GL_SHADING_LANGUAGE_VERSION.
    pub fn glsl_string(&self) -> String {
        match glsl_version_for(self.major, self.minor) {
            Some((a, b)) if self.overridden => format!("{a}.{b:02} softgl"),
            _ => crate::api::query::SHADING_LANGUAGE_VERSION.to_string(),
        }
    }

    /// GL_CONTEXT_PROFILE_MASK (GL 4.5 core §22.2): the profile's bit; 0 below 3.2.
    pub fn profile_mask(&self) -> u32 {
        use crate::gl::enums as gl;
        match self.profile() {
            Some(Profile::Core) => gl::CONTEXT_CORE_PROFILE_BIT,
            Some(Profile::Compatibility) => gl::CONTEXT_COMPATIBILITY_PROFILE_BIT,
            None => 0,
        }
    }

    /// GL_CONTEXT_FLAGS (GL 4.5 core §22.2).
    pub fn context_flags(&self) -> u32 {
        use crate::gl::enums as gl;
        let mut f = 0;
        if self.attribs.debug {
            f |= gl::CONTEXT_FLAG_DEBUG_BIT;
        }
        if self.attribs.forward_compatible {
            f |= gl::CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribs(major: u32, minor: u32, profile: Profile) -> ContextAttribs {
        ContextAttribs {
            major,
            minor,
            profile,
            ..Default::default()
        }
    }

    #[test]
    fn override_parsing() {
        assert_eq!(parse_override("4.5"), Some((4, 5)));
        assert_eq!(parse_override(" 3.3 "), Some((3, 3)));
        assert_eq!(parse_override("4.7"), None);
        assert_eq!(parse_override("3.4"), None);
        assert_eq!(parse_override("45"), None);
        assert_eq!(parse_override("4.5COMPAT"), None);
        assert_eq!(parse_override(""), None);
    }

    #[test]
    fn without_override_only_1_0() {
        let r = Reported::new(&ContextAttribs::default(), None).unwrap();
        assert_eq!((r.major, r.minor), (1, 0));
        assert!(r.version_string().starts_with("1.0 softgl"));
        assert!(r.version_string().contains("incomplete"));
        assert_eq!(r.profile_mask(), 0);
        assert_eq!(
            Reported::new(&attribs(4, 5, Profile::Core), None).unwrap_err(),
            ContextError::VersionUnsupported {
                major: 4,
                minor: 5,
                supported_major: 1,
                supported_minor: 0
            }
        );
        assert!(Reported::new(&attribs(1, 1, Profile::Core), None).is_err());
    }

    #[test]
    fn with_override_claims_it() {
        let o = Some((4, 5));
        let r = Reported::new(&attribs(3, 3, Profile::Core), o).unwrap();
        assert_eq!((r.major, r.minor), (4, 5));
        assert_eq!(
            r.version_string(),
            format!("4.5 (Core Profile) softgl {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(r.glsl_string(), "4.50 softgl");
        assert_eq!(r.profile_mask(), crate::gl::enums::CONTEXT_CORE_PROFILE_BIT);
        let c = Reported::new(&attribs(4, 5, Profile::Compatibility), o).unwrap();
        assert!(c
            .version_string()
            .starts_with("4.5 (Compatibility Profile)"));
        // A legacy request gets a compatibility context.
        let l = Reported::new(&attribs(2, 1, Profile::Core), o).unwrap();
        assert_eq!(l.profile(), Some(Profile::Compatibility));
        assert!(Reported::new(&attribs(4, 6, Profile::Core), o).is_err());
        assert!(Reported::new(&attribs(2, 2, Profile::Core), o).is_err());
        let fc = ContextAttribs {
            forward_compatible: true,
            ..attribs(2, 1, Profile::Core)
        };
        assert_eq!(
            Reported::new(&fc, o).unwrap_err(),
            ContextError::ForwardCompatibleBelow30
        );
        let o32 = Reported::new(&attribs(1, 0, Profile::Core), Some((3, 2))).unwrap();
        assert_eq!(o32.glsl_string(), "1.50 softgl");
    }

    #[test]
    fn flags() {
        let a = ContextAttribs {
            debug: true,
            forward_compatible: true,
            ..attribs(3, 0, Profile::Core)
        };
        let r = Reported::new(&a, Some((4, 5))).unwrap();
        use crate::gl::enums as gl;
        assert_eq!(
            r.context_flags(),
            gl::CONTEXT_FLAG_DEBUG_BIT | gl::CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT
        );
    }
}
