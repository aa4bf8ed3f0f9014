//! The version policy: which GL (and GLSL) version softgl reports, and the context
//! attributes that select a version and profile (`Profile`, `ContextAttribs`,
//! `ContextError`, `supported_version`).
//!
//! GL_VERSION is honest (DESIGN.md §6): the highest version whose every feature works, which
//! today is the floor, 1.0, with a string that says it is incomplete. Like Mesa's
//! `MESA_GL_VERSION_OVERRIDE`, the environment variable `SOFTGL_GL_VERSION_OVERRIDE` makes
//! softgl *claim* a version, for running programs and suites that demand one. That is the
//! user's explicit choice; softgl does not implement more because of it. The variable is
//! read once per context creation, and takes Mesa's three forms ([`OverrideForm`]):
//!
//! | value | claims X.Y for | reported as |
//! |---|---|---|
//! | `X.Y` | core-profile requests (3.2 and later) and 3.1 requests; below 3.2, where GL has no profiles, every request | `X.Y (Core Profile)` |
//! | `X.YCOMPAT` | compatibility-profile requests and requests up to 3.0 (unversioned ones included) | `X.Y (Compatibility Profile)` |
//! | `X.YFC` | core-profile requests, and the context is forward-compatible | `X.Y (Core Profile)`, GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT |
//!
//! An override claims the profile it names and nothing else: a request of another profile
//! gets what softgl really has, the honest version above (1.0, "incomplete", no profile), or
//! is refused when it asks for more than that ([`ContextError::OverrideOtherProfile`]). So
//! `SOFTGL_GL_VERSION_OVERRIDE=4.5` never makes a "4.5 (Compatibility Profile)" context: softgl
//! has no compatibility-profile commands to back such a claim.

/// The environment variable that raises the claimed GL version (`X.Y`, `X.YCOMPAT` or
/// `X.YFC`, e.g. `4.5`).
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
    /// Robust buffer access was asked for (EGL_CONTEXT_OPENGL_ROBUST_ACCESS): softgl's
    /// accesses are always robust, this only sets GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT.
    pub robust_access: bool,
    /// GL_RESET_NOTIFICATION_STRATEGY is LOSE_CONTEXT_ON_RESET (else NO_RESET_NOTIFICATION,
    /// EGL's default): a shader whose loop budget runs out resets the context
    /// (`api/robustness.rs`).
    pub lose_context_on_reset: bool,
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
            robust_access: false,
            lose_context_on_reset: false,
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
    /// SOFTGL_GL_VERSION_OVERRIDE claims a version for another profile than the one
    /// requested, and softgl's own version is below the request (EGL_BAD_MATCH).
    #[error("OpenGL {major}.{minor} ({requested}) requested: SOFTGL_GL_VERSION_OVERRIDE claims {claimed_major}.{claimed_minor} for {claimed} contexts only, and softgl itself supports {supported_major}.{supported_minor}")]
    OverrideOtherProfile {
        major: u32,
        minor: u32,
        /// The request's kind: "core profile", "compatibility profile" or "below 3.1".
        requested: &'static str,
        claimed: &'static str,
        claimed_major: u32,
        claimed_minor: u32,
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

/// Which contexts a `SOFTGL_GL_VERSION_OVERRIDE` value claims its version for: Mesa's
/// `MESA_GL_VERSION_OVERRIDE` forms (`X.Y`, `X.YCOMPAT`, `X.YFC`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OverrideForm {
    /// `X.Y`: the core profile (from 3.2 on; below 3.2 there are no profiles).
    Core,
    /// `X.YCOMPAT`: the compatibility profile, which also serves requests up to 3.0 (EGL 1.5
    /// §3.7.1.1: a context must stay backward compatible with the version asked for).
    Compatibility,
    /// `X.YFC`: the core profile, forward-compatible (3.0 and later only).
    ForwardCompatible,
}

/// A parsed `SOFTGL_GL_VERSION_OVERRIDE`: the version it claims and for which contexts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VersionOverride {
    pub major: u32,
    pub minor: u32,
    pub form: OverrideForm,
}

impl VersionOverride {
    /// Whether the override claims its version for a context requested with `attribs`.
    /// Below 3.2 GL has no profiles, so an override of such a version serves every request
    /// (one above it is refused anyway). From 3.2 on a request up to 3.0 is a legacy
    /// request, which only a compatibility profile satisfies, and a 3.1 request a core one.
    pub fn serves(&self, attribs: &ContextAttribs) -> bool {
        if (self.major, self.minor) < (3, 2) {
            return true;
        }
        matches!(
            (self.form, requested_profile(attribs)),
            (
                OverrideForm::Core | OverrideForm::ForwardCompatible,
                Profile::Core
            ) | (OverrideForm::Compatibility, Profile::Compatibility)
        )
    }

    /// The contexts it claims its version for, in words (for error messages).
    fn claims(&self) -> &'static str {
        match self.form {
            OverrideForm::Core => "core-profile",
            OverrideForm::Compatibility => "compatibility-profile and pre-3.2",
            OverrideForm::ForwardCompatible => "forward-compatible core-profile",
        }
    }
}

/// The profile a request is satisfied by once the version reported is 3.2 or later
/// (EGL_KHR_create_context, as Mesa does it): from 3.2 on the one asked for; a 3.1 request
/// the core profile (the spec lets a 3.1 request get "the core profile of version 3.2 or
/// greater", and piglit's GL 3.1 tests ask for exactly that, forward-compatible); a request
/// up to 3.0 the compatibility profile (it must stay backward compatible with what it
/// asked for).
fn requested_profile(attribs: &ContextAttribs) -> Profile {
    match (attribs.major, attribs.minor) {
        v if v >= (3, 2) => attribs.profile,
        (3, 1) => Profile::Core,
        _ => Profile::Compatibility,
    }
}

/// Parses the override's value: `X.Y`, `X.YCOMPAT` or `X.YFC` naming a GL version (as Mesa
/// spells them: the suffixes are upper case); anything else is ignored. `FC` needs 3.0 or
/// later (no forward-compatible context exists below).
pub fn parse_override(s: &str) -> Option<VersionOverride> {
    let s = s.trim();
    let (number, form) = if let Some(n) = s.strip_suffix("COMPAT") {
        (n, OverrideForm::Compatibility)
    } else if let Some(n) = s.strip_suffix("FC") {
        (n, OverrideForm::ForwardCompatible)
    } else {
        (s, OverrideForm::Core)
    };
    let (a, b) = number.split_once('.')?;
    let (major, minor): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
    if !is_gl_version(major, minor) || (major, minor) > MAX_VERSION {
        return None;
    }
    if form == OverrideForm::ForwardCompatible && major < 3 {
        return None;
    }
    Some(VersionOverride { major, minor, form })
}

/// The override the environment asks for, if any (read at each call).
pub fn override_version() -> Option<VersionOverride> {
    std::env::var(VERSION_OVERRIDE_VAR)
        .ok()
        .and_then(|s| parse_override(&s))
}

/// The highest GL version softgl reports for some context: the honest one, or the
/// override's (which holds only for the profile the override names, see [`OverrideForm`]).
pub fn supported_version() -> (u32, u32) {
    override_version().map_or(HONEST_VERSION, |o| (o.major, o.minor))
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
    /// Checks `attribs` against what softgl supports for them (the honest version, or the
    /// override's when it claims the requested profile) and decides what the context
    /// reports.
    pub fn new(
        attribs: &ContextAttribs,
        override_: Option<VersionOverride>,
    ) -> Result<Reported, ContextError> {
        let (major, minor) = (attribs.major, attribs.minor);
        if !is_gl_version(major, minor) {
            return Err(ContextError::VersionInvalid { major, minor });
        }
        let claim = override_.filter(|o| o.serves(attribs));
        let supported = claim.map_or(HONEST_VERSION, |o| (o.major, o.minor));
        if (major, minor) > supported {
            return Err(match override_ {
                Some(o) if claim.is_none() => ContextError::OverrideOtherProfile {
                    major,
                    minor,
                    requested: if (major, minor) < (3, 1) {
                        "below 3.1"
                    } else if requested_profile(attribs) == Profile::Core {
                        "core profile"
                    } else {
                        "compatibility profile"
                    },
                    claimed: o.claims(),
                    claimed_major: o.major,
                    claimed_minor: o.minor,
                    supported_major: supported.0,
                    supported_minor: supported.1,
                },
                _ => ContextError::VersionUnsupported {
                    major,
                    minor,
                    supported_major: supported.0,
                    supported_minor: supported.1,
                },
            });
        }
        if attribs.forward_compatible && major < 3 {
            return Err(ContextError::ForwardCompatibleBelow30);
        }
        let mut attribs = attribs.clone();
        if claim.is_some_and(|o| o.form == OverrideForm::ForwardCompatible) {
            attribs.forward_compatible = true;
        }
        // EGL_KHR_create_context: the context may report any version at least as high as
        // the one asked for that is backward compatible with it; like Mesa, softgl reports
        // the highest it supports for that request.
        Ok(Reported {
            attribs,
            major: supported.0,
            minor: supported.1,
            overridden: claim.is_some(),
        })
    }

    /// The profile that applies: profiles exist from 3.2 on (a request below 3.2 gets what
    /// the version implies, EGL 1.5 §3.7.1.1); `None` for a context reporting below 3.2.
    pub fn profile(&self) -> Option<Profile> {
        if (self.major, self.minor) < (3, 2) {
            return None;
        }
        Some(requested_profile(&self.attribs))
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
        if self.attribs.robust_access {
            f |= gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT;
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

    fn ov(major: u32, minor: u32, form: OverrideForm) -> Option<VersionOverride> {
        Some(VersionOverride { major, minor, form })
    }

    #[test]
    fn override_parsing_takes_mesas_three_forms() {
        use OverrideForm::*;
        assert_eq!(parse_override("4.5"), ov(4, 5, Core));
        assert_eq!(parse_override(" 3.3 "), ov(3, 3, Core));
        assert_eq!(parse_override("4.5COMPAT"), ov(4, 5, Compatibility));
        assert_eq!(parse_override("3.3FC"), ov(3, 3, ForwardCompatible));
        assert_eq!(parse_override("3.0FC"), ov(3, 0, ForwardCompatible));
        assert_eq!(parse_override("2.1COMPAT"), ov(2, 1, Compatibility));
        // No forward-compatible context below 3.0; not GL versions; other spellings.
        assert_eq!(parse_override("2.1FC"), None);
        assert_eq!(parse_override("4.7"), None);
        assert_eq!(parse_override("3.4"), None);
        assert_eq!(parse_override("45"), None);
        assert_eq!(parse_override("4.5compat"), None);
        assert_eq!(parse_override("4.5CORE"), None);
        assert_eq!(parse_override("COMPAT"), None);
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
    fn plain_override_claims_the_core_profile() {
        let o = ov(4, 5, OverrideForm::Core);
        let r = Reported::new(&attribs(3, 3, Profile::Core), o).unwrap();
        assert_eq!((r.major, r.minor), (4, 5));
        assert_eq!(
            r.version_string(),
            format!("4.5 (Core Profile) softgl {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(r.glsl_string(), "4.50 softgl");
        assert_eq!(r.profile_mask(), crate::gl::enums::CONTEXT_CORE_PROFILE_BIT);
        assert_eq!(r.context_flags(), 0);
        assert!(Reported::new(&attribs(4, 6, Profile::Core), o).is_err());
        assert!(Reported::new(&attribs(2, 2, Profile::Core), o).is_err());
        // A forward-compatible request below 3.0 (here 1.0, which softgl has anyway).
        let fc = ContextAttribs {
            forward_compatible: true,
            ..attribs(1, 0, Profile::Core)
        };
        assert_eq!(
            Reported::new(&fc, o).unwrap_err(),
            ContextError::ForwardCompatibleBelow30
        );
        let o32 = Reported::new(&attribs(3, 2, Profile::Core), ov(3, 2, OverrideForm::Core));
        assert_eq!(o32.unwrap().glsl_string(), "1.50 softgl");
    }

    #[test]
    fn plain_override_never_claims_compatibility() {
        let o = ov(4, 5, OverrideForm::Core);
        // An unversioned request (EGL's default, 1.0) gets what softgl really has.
        for a in [ContextAttribs::default(), attribs(1, 0, Profile::Core)] {
            let r = Reported::new(&a, o).unwrap();
            assert_eq!((r.major, r.minor), HONEST_VERSION);
            assert!(!r.overridden);
            assert_eq!(r.version_string(), crate::api::query::VERSION);
            assert!(!r.version_string().contains("Compatibility"));
            assert_eq!(r.glsl_string(), crate::api::query::SHADING_LANGUAGE_VERSION);
            assert_eq!(r.profile_mask(), 0);
        }
        // A legacy or compatibility request above that is refused, naming the override.
        assert_eq!(
            Reported::new(&attribs(2, 1, Profile::Core), o).unwrap_err(),
            ContextError::OverrideOtherProfile {
                major: 2,
                minor: 1,
                requested: "below 3.1",
                claimed: "core-profile",
                claimed_major: 4,
                claimed_minor: 5,
                supported_major: 1,
                supported_minor: 0,
            }
        );
        let e = Reported::new(&attribs(4, 5, Profile::Compatibility), o).unwrap_err();
        assert!(matches!(
            e,
            ContextError::OverrideOtherProfile {
                requested: "compatibility profile",
                ..
            }
        ));
        assert!(
            e.to_string()
                .contains("SOFTGL_GL_VERSION_OVERRIDE claims 4.5"),
            "{e}"
        );
    }

    #[test]
    fn compat_override_claims_compatibility_and_legacy_only() {
        let o = ov(4, 5, OverrideForm::Compatibility);
        let c = Reported::new(&attribs(3, 3, Profile::Compatibility), o).unwrap();
        assert!(c
            .version_string()
            .starts_with("4.5 (Compatibility Profile)"));
        assert_eq!(
            c.profile_mask(),
            crate::gl::enums::CONTEXT_COMPATIBILITY_PROFILE_BIT
        );
        // A legacy request (unversioned included) gets a compatibility context.
        for a in [ContextAttribs::default(), attribs(2, 1, Profile::Core)] {
            let l = Reported::new(&a, o).unwrap();
            assert_eq!((l.major, l.minor), (4, 5));
            assert_eq!(l.profile(), Some(Profile::Compatibility));
        }
        // A core request is not what it names.
        assert!(matches!(
            Reported::new(&attribs(3, 3, Profile::Core), o).unwrap_err(),
            ContextError::OverrideOtherProfile {
                requested: "core profile",
                ..
            }
        ));
    }

    #[test]
    fn a_3_1_request_gets_the_core_profile() {
        // EGL_KHR_create_context: a 3.1 request may get the core profile of 3.2 or later,
        // never a compatibility one; piglit's GL 3.1 tests ask for 3.1 forward-compatible.
        for forward_compatible in [false, true] {
            let a = ContextAttribs {
                forward_compatible,
                ..attribs(3, 1, Profile::Compatibility)
            };
            let r = Reported::new(&a, ov(4, 5, OverrideForm::Core)).unwrap();
            assert_eq!((r.major, r.minor), (4, 5));
            assert_eq!(r.profile(), Some(Profile::Core));
            assert!(r.version_string().starts_with("4.5 (Core Profile)"));
            assert!(matches!(
                Reported::new(&a, ov(4, 5, OverrideForm::Compatibility)).unwrap_err(),
                ContextError::OverrideOtherProfile {
                    requested: "core profile",
                    ..
                }
            ));
        }
        // 3.0 and below stay compatibility requests.
        assert!(
            Reported::new(&attribs(3, 0, Profile::Core), ov(4, 5, OverrideForm::Core)).is_err()
        );
    }

    #[test]
    fn fc_override_claims_forward_compatible_core() {
        use crate::gl::enums as gl;
        let o = ov(3, 3, OverrideForm::ForwardCompatible);
        let r = Reported::new(&attribs(3, 3, Profile::Core), o).unwrap();
        assert!(r.version_string().starts_with("3.3 (Core Profile)"));
        assert_eq!(r.context_flags(), gl::CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT);
        let honest = Reported::new(&ContextAttribs::default(), o).unwrap();
        assert!(!honest.overridden);
        assert_eq!(honest.context_flags(), 0);
        assert!(Reported::new(&attribs(3, 3, Profile::Compatibility), o).is_err());
    }

    #[test]
    fn override_below_3_2_serves_every_request() {
        // No profiles below 3.2: `3.0` is a 3.0 context for any request up to it.
        let r = Reported::new(&ContextAttribs::default(), ov(3, 0, OverrideForm::Core));
        let r = r.unwrap();
        assert_eq!((r.major, r.minor), (3, 0));
        assert_eq!(r.profile(), None);
        assert!(r.version_string().starts_with("3.0 softgl"));
        assert!(matches!(
            Reported::new(&attribs(3, 3, Profile::Core), ov(3, 1, OverrideForm::Core)),
            Err(ContextError::VersionUnsupported {
                supported_major: 3,
                supported_minor: 1,
                ..
            })
        ));
    }

    #[test]
    fn flags() {
        let a = ContextAttribs {
            debug: true,
            forward_compatible: true,
            ..attribs(3, 2, Profile::Core)
        };
        let r = Reported::new(&a, ov(4, 5, OverrideForm::Core)).unwrap();
        use crate::gl::enums as gl;
        assert_eq!(
            r.context_flags(),
            gl::CONTEXT_FLAG_DEBUG_BIT | gl::CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT
        );
    }
}
