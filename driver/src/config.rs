//! The EGL frame-buffer configurations softgl offers and eglChooseConfig's matching and
//! sorting (EGL 1.5 §3.4, §3.4.1.2, Table 3.4).
//!
//! Two configs, matching what `softgl::Surface` can hold: RGBA8 without ancillary buffers,
//! and RGBA8 with D24S8. Both render OpenGL into pbuffers only: softgl has no window
//! system, so no window or pixmap bit is claimed.

use crate::consts as egl;
use crate::consts::EGLint;

/// Largest pbuffer side softgl creates (the GL_MAX_RENDERBUFFER_SIZE / MAX_TEXTURE_SIZE
/// order of magnitude; a larger one fails with EGL_BAD_ALLOC, or is clamped with
/// EGL_LARGEST_PBUFFER).
pub const MAX_PBUFFER_SIDE: EGLint = 16384;

/// One config; `id` is its EGL_CONFIG_ID and, as a handle, the EGLConfig value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub id: EGLint,
    pub depth: EGLint,
    pub stencil: EGLint,
}

/// All configs, in EGL_CONFIG_ID order.
pub const CONFIGS: [Config; 2] = [
    Config {
        id: 1,
        depth: 0,
        stencil: 0,
    },
    Config {
        id: 2,
        depth: 24,
        stencil: 8,
    },
];

/// The config whose EGLConfig handle is `handle` (handles are the config ids).
pub fn config_by_handle(handle: usize) -> Option<Config> {
    CONFIGS.iter().copied().find(|c| c.id as usize == handle)
}

impl Config {
    pub fn has_depth_stencil(&self) -> bool {
        self.depth > 0
    }

    /// eglGetConfigAttrib: the value of `attrib`, or None for an attribute EGL does not
    /// define (EGL_BAD_ATTRIBUTE).
    pub fn attrib(&self, attrib: EGLint) -> Option<EGLint> {
        Some(match attrib {
            egl::BUFFER_SIZE => 32,
            egl::RED_SIZE | egl::GREEN_SIZE | egl::BLUE_SIZE | egl::ALPHA_SIZE => 8,
            egl::LUMINANCE_SIZE | egl::ALPHA_MASK_SIZE => 0,
            egl::DEPTH_SIZE => self.depth,
            egl::STENCIL_SIZE => self.stencil,
            egl::BIND_TO_TEXTURE_RGB | egl::BIND_TO_TEXTURE_RGBA => egl::FALSE as EGLint,
            egl::COLOR_BUFFER_TYPE => egl::RGB_BUFFER,
            egl::CONFIG_CAVEAT => egl::NONE,
            egl::CONFIG_ID => self.id,
            egl::CONFORMANT | egl::RENDERABLE_TYPE => egl::OPENGL_BIT,
            egl::LEVEL => 0,
            egl::MAX_PBUFFER_WIDTH | egl::MAX_PBUFFER_HEIGHT => MAX_PBUFFER_SIDE,
            egl::MAX_PBUFFER_PIXELS => MAX_PBUFFER_SIDE * MAX_PBUFFER_SIDE,
            // Swap intervals mean nothing for pbuffers (EGL 1.5 §3.10.3): 0 is the honest
            // and only value.
            egl::MAX_SWAP_INTERVAL | egl::MIN_SWAP_INTERVAL => 0,
            egl::NATIVE_RENDERABLE => egl::FALSE as EGLint,
            egl::NATIVE_VISUAL_ID => 0,
            egl::NATIVE_VISUAL_TYPE => egl::NONE,
            egl::SAMPLE_BUFFERS | egl::SAMPLES => 0,
            egl::SURFACE_TYPE => egl::PBUFFER_BIT,
            egl::TRANSPARENT_TYPE => egl::NONE,
            egl::TRANSPARENT_RED_VALUE | egl::TRANSPARENT_GREEN_VALUE => 0,
            egl::TRANSPARENT_BLUE_VALUE => 0,
            _ => return None,
        })
    }
}

/// How a requested value is compared (EGL 1.5 Table 3.4's "selection criteria").
#[derive(Copy, Clone, PartialEq, Eq)]
enum Criterion {
    AtLeast,
    Exact,
    Mask,
    /// Accepted in the list but not used for matching (MAX_PBUFFER_*, NATIVE_VISUAL_ID,
    /// and NATIVE_VISUAL_TYPE / MATCH_NATIVE_PIXMAP, which need native objects softgl
    /// does not have).
    Ignored,
}

/// Table 3.4: each attribute eglChooseConfig accepts, its default and its criterion.
fn table_entry(attrib: EGLint) -> Option<(EGLint, Criterion)> {
    use Criterion::*;
    Some(match attrib {
        egl::BUFFER_SIZE
        | egl::RED_SIZE
        | egl::GREEN_SIZE
        | egl::BLUE_SIZE
        | egl::LUMINANCE_SIZE
        | egl::ALPHA_SIZE
        | egl::ALPHA_MASK_SIZE
        | egl::DEPTH_SIZE
        | egl::STENCIL_SIZE
        | egl::SAMPLE_BUFFERS
        | egl::SAMPLES => (0, AtLeast),
        egl::BIND_TO_TEXTURE_RGB
        | egl::BIND_TO_TEXTURE_RGBA
        | egl::CONFIG_CAVEAT
        | egl::CONFIG_ID
        | egl::MAX_SWAP_INTERVAL
        | egl::MIN_SWAP_INTERVAL
        | egl::NATIVE_RENDERABLE
        | egl::TRANSPARENT_RED_VALUE
        | egl::TRANSPARENT_GREEN_VALUE
        | egl::TRANSPARENT_BLUE_VALUE => (egl::DONT_CARE, Exact),
        egl::COLOR_BUFFER_TYPE => (egl::RGB_BUFFER, Exact),
        egl::LEVEL => (0, Exact),
        egl::TRANSPARENT_TYPE => (egl::NONE, Exact),
        egl::CONFORMANT => (0, Mask),
        egl::RENDERABLE_TYPE => (egl::OPENGL_ES_BIT, Mask),
        egl::SURFACE_TYPE => (egl::WINDOW_BIT, Mask),
        egl::MATCH_NATIVE_PIXMAP | egl::NATIVE_VISUAL_TYPE => (egl::DONT_CARE, Ignored),
        egl::MAX_PBUFFER_WIDTH | egl::MAX_PBUFFER_HEIGHT | egl::MAX_PBUFFER_PIXELS => (0, Ignored),
        egl::NATIVE_VISUAL_ID => (0, Ignored),
        _ => return None,
    })
}

/// The attributes whose defaults matter, in Table 3.4 order.
const MATCHED: [EGLint; 24] = [
    egl::BUFFER_SIZE,
    egl::RED_SIZE,
    egl::GREEN_SIZE,
    egl::BLUE_SIZE,
    egl::LUMINANCE_SIZE,
    egl::ALPHA_SIZE,
    egl::ALPHA_MASK_SIZE,
    egl::BIND_TO_TEXTURE_RGB,
    egl::BIND_TO_TEXTURE_RGBA,
    egl::COLOR_BUFFER_TYPE,
    egl::CONFIG_CAVEAT,
    egl::CONFIG_ID,
    egl::CONFORMANT,
    egl::DEPTH_SIZE,
    egl::LEVEL,
    egl::MAX_SWAP_INTERVAL,
    egl::MIN_SWAP_INTERVAL,
    egl::NATIVE_RENDERABLE,
    egl::RENDERABLE_TYPE,
    egl::SAMPLE_BUFFERS,
    egl::SAMPLES,
    egl::STENCIL_SIZE,
    egl::SURFACE_TYPE,
    egl::TRANSPARENT_TYPE,
];

/// eglChooseConfig: the configs matching `attribs` (name/value pairs, EGL_NONE already
/// stripped), sorted by §3.4.1.2's rules; Err(EGL_BAD_ATTRIBUTE) for an attribute
/// Table 3.4 does not list.
pub fn choose(attribs: &[(EGLint, EGLint)]) -> Result<Vec<Config>, EGLint> {
    // Requested value per attribute: the default, overridden by the list (the last
    // occurrence wins, as in every EGL attribute list).
    let mut requested: Vec<(EGLint, EGLint)> = MATCHED
        .iter()
        .map(|&a| (a, table_entry(a).map_or(0, |e| e.0)))
        .collect();
    for &(name, value) in attribs {
        if table_entry(name).is_none() {
            return Err(crate::entry::why(
                egl::BAD_ATTRIBUTE,
                format!(
                    "{} is not a config attribute (EGL 1.5 table 3.4)",
                    egl::name(name)
                ),
            ));
        }
        if let Some(slot) = requested.iter_mut().find(|(a, _)| *a == name) {
            slot.1 = value;
        }
    }
    let get = |name: EGLint| requested.iter().find(|(a, _)| *a == name).map(|r| r.1);

    // §3.4.1.2: "If EGL_CONFIG_ID is specified, it is used and all other attributes are
    // ignored."
    if let Some(id) = get(egl::CONFIG_ID).filter(|&id| id != egl::DONT_CARE) {
        return Ok(CONFIGS.iter().copied().filter(|c| c.id == id).collect());
    }

    let mut out: Vec<Config> = CONFIGS
        .iter()
        .copied()
        .filter(|config| {
            requested.iter().all(|&(name, want)| {
                let Some((_, criterion)) = table_entry(name) else {
                    return true;
                };
                if want == egl::DONT_CARE {
                    return true;
                }
                let have = config.attrib(name).unwrap_or(0);
                match criterion {
                    Criterion::AtLeast => have >= want,
                    Criterion::Exact => have == want,
                    Criterion::Mask => have & want == want,
                    Criterion::Ignored => true,
                }
            })
        })
        .collect();

    // Sorting (§3.4.1.2): caveat, color buffer type, *larger* total of the requested
    // colour components, smaller buffer size, sample buffers, samples, depth, stencil,
    // alpha mask, native visual type, then config id. Our configs share everything up to
    // depth, so depth/stencil and then id decide; the full key is kept so a future config
    // sorts right.
    let color_bits = |c: &Config| -> EGLint {
        [
            egl::RED_SIZE,
            egl::GREEN_SIZE,
            egl::BLUE_SIZE,
            egl::ALPHA_SIZE,
        ]
        .iter()
        .filter(|&&a| get(a).is_some_and(|v| v != 0 && v != egl::DONT_CARE))
        .map(|&a| c.attrib(a).unwrap_or(0))
        .sum()
    };
    out.sort_by_key(|c| {
        (
            c.attrib(egl::CONFIG_CAVEAT).unwrap_or(0),
            std::cmp::Reverse(color_bits(c)),
            c.attrib(egl::BUFFER_SIZE).unwrap_or(0),
            c.attrib(egl::SAMPLE_BUFFERS).unwrap_or(0),
            c.attrib(egl::SAMPLES).unwrap_or(0),
            c.depth,
            c.stencil,
            c.id,
        )
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_list_matches_nothing_since_configs_are_pbuffer_gl_only() {
        // Defaults are SURFACE_TYPE=WINDOW_BIT and RENDERABLE_TYPE=OPENGL_ES_BIT.
        assert_eq!(choose(&[]).unwrap(), vec![]);
    }

    #[test]
    fn gl_pbuffer_request_sorts_smaller_depth_first() {
        let got = choose(&[
            (egl::SURFACE_TYPE, egl::PBUFFER_BIT),
            (egl::RENDERABLE_TYPE, egl::OPENGL_BIT),
        ])
        .unwrap();
        assert_eq!(got.iter().map(|c| c.id).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn depth_request_filters() {
        let got = choose(&[
            (egl::SURFACE_TYPE, egl::PBUFFER_BIT),
            (egl::RENDERABLE_TYPE, egl::OPENGL_BIT),
            (egl::DEPTH_SIZE, 1),
        ])
        .unwrap();
        assert_eq!(got.iter().map(|c| c.id).collect::<Vec<_>>(), vec![2]);
        let none = choose(&[(egl::RENDERABLE_TYPE, egl::OPENGL_ES2_BIT)]).unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn config_id_overrides_everything_else() {
        let got = choose(&[(egl::CONFIG_ID, 2), (egl::DEPTH_SIZE, 99)]).unwrap();
        assert_eq!(got, vec![CONFIGS[1]]);
    }

    #[test]
    fn unknown_attribute_is_bad_attribute() {
        assert_eq!(choose(&[(0x1234, 1)]), Err(egl::BAD_ATTRIBUTE));
    }
}
