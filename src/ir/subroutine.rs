//! Shader subroutines (GL 4.5 core §7.10, GLSL 4.60 §6.1.2, ARB_shader_subroutine): what a
//! stage's module says about them (its subroutine functions with their indices, its
//! subroutine uniforms with their locations and compatible functions), the limits, the link
//! rules, the default selection, and the one hidden default-block uniform that carries the
//! selection of every location of a stage to generated code.
//!
//! **How a call dispatches.** The front end (`glsl/subroutine.rs`) reserves, per stage that
//! declares subroutine uniforms, one hidden `uint` array in the default uniform block
//! ([`hidden_uniform_name`]), one word per subroutine uniform location, and lowers a call
//! through a subroutine uniform to a chain of `if (word == index) { inlined function }`
//! over the compatible functions. The API writes the context's selection (per stage,
//! GL 4.5 core §7.10: context state, not program state) into that word range at each draw.
//! Everything that moves default-block words (geometry and tessellation stages merged into
//! the vertex stage's block, pipeline compositions renaming per program) moves the hidden
//! uniform as any other, so nothing downstream knows about subroutines; a shader without
//! subroutine uniforms has no hidden uniform and pays nothing.

use super::Stage;

/// GL_MAX_SUBROUTINES: active subroutines per stage (the minimum GL 4.0 asks, llvmpipe's).
pub const MAX_SUBROUTINES: u32 = 256;
/// GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS: subroutine uniform locations per stage.
pub const MAX_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 1024;

/// One function associated with subroutine types (`subroutine(T, U) vec4 f(...)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineFunction {
    pub name: String,
    /// Its subroutine index: `layout(index = N)`, else the lowest free one in declaration
    /// order (GL 4.5 core §7.10).
    pub index: u32,
    /// The subroutine types it is associated with.
    pub types: Vec<String>,
}

/// One subroutine uniform (`subroutine uniform T u;` or `u[N]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineUniform {
    /// As GL reflection names it: `u`, or `u[0]` for an array.
    pub name: String,
    /// Its subroutine type.
    pub ty: String,
    /// Array length, `None` for a non-array.
    pub array_len: Option<u32>,
    /// Location of element 0 (`layout(location = N)`, else the lowest free ones in
    /// declaration order); element i is at `location + i`.
    pub location: u32,
    /// Indices of the functions of its type, ascending (COMPATIBLE_SUBROUTINES).
    pub compatible: Vec<u32>,
}

impl SubroutineUniform {
    pub fn elements(&self) -> u32 {
        self.array_len.unwrap_or(1)
    }
}

/// A stage's subroutines, as its module declares them. Empty for most shaders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubroutineInfo {
    /// Every function associated with a subroutine type, in index order.
    pub functions: Vec<SubroutineFunction>,
    /// Every subroutine uniform, in declaration order (its active subroutine uniform
    /// index).
    pub uniforms: Vec<SubroutineUniform>,
    /// ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS: one past the highest location used (explicit
    /// locations may leave unused ones below it).
    pub locations: u32,
}

impl SubroutineInfo {
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty() && self.uniforms.is_empty()
    }

    /// The function with subroutine index `index`.
    pub fn function(&self, index: u32) -> Option<&SubroutineFunction> {
        self.functions.iter().find(|f| f.index == index)
    }

    /// The uniform that holds `location`, and the element it is.
    pub fn uniform_at(&self, location: u32) -> Option<(&SubroutineUniform, u32)> {
        self.uniforms.iter().find_map(|u| {
            (location >= u.location && location - u.location < u.elements())
                .then(|| (u, location - u.location))
        })
    }

    /// The location of `name` (`u`, `u[2]`) for glGetSubroutineUniformLocation.
    pub fn uniform_location(&self, name: &str) -> Option<u32> {
        let (base, element) = split_element(name);
        self.uniforms.iter().find_map(|u| {
            let own = u.name.strip_suffix("[0]").unwrap_or(&u.name);
            if own != base {
                return None;
            }
            match (element, u.array_len) {
                (None, _) => Some(u.location),
                (Some(e), Some(n)) if e < n => Some(u.location + e),
                _ => None,
            }
        })
    }

    /// The selection GL starts a stage with (after glUseProgram and the like): each
    /// location its uniform's lowest compatible index; unused locations 0.
    pub fn default_selection(&self) -> Vec<u32> {
        (0..self.locations)
            .map(|loc| {
                self.uniform_at(loc)
                    .and_then(|(u, _)| u.compatible.first().copied())
                    .unwrap_or(0)
            })
            .collect()
    }

    /// The link errors of GL 4.5 core §7.10 for this stage: more locations or subroutines
    /// than the limits, or a subroutine uniform no function can be assigned to.
    pub fn link_errors(&self) -> Vec<String> {
        let mut errors = Vec::new();
        if self.locations > MAX_SUBROUTINE_UNIFORM_LOCATIONS {
            errors.push(format!(
                "{} subroutine uniform locations, more than GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS ({MAX_SUBROUTINE_UNIFORM_LOCATIONS})",
                self.locations
            ));
        }
        if self.functions.len() as u32 > MAX_SUBROUTINES {
            errors.push(format!(
                "{} subroutines, more than GL_MAX_SUBROUTINES ({MAX_SUBROUTINES})",
                self.functions.len()
            ));
        }
        for u in &self.uniforms {
            if u.compatible.is_empty() {
                errors.push(format!(
                    "subroutine uniform `{}' has no function of its type `{}'",
                    u.name, u.ty
                ));
            }
        }
        errors
    }
}

/// Splits `u[3]` into (`u`, Some(3)); any other name into (name, None).
fn split_element(name: &str) -> (&str, Option<u32>) {
    if let Some(stripped) = name.strip_suffix(']') {
        if let Some(open) = stripped.rfind('[') {
            if let Ok(i) = stripped[open + 1..].parse::<u32>() {
                return (&stripped[..open], Some(i));
            }
        }
    }
    (name, None)
}

/// The prefix of the hidden uniforms. `gl_` names are reserved to GL (GLSL 4.60 §3.7) and
/// the `.` cannot appear in an identifier, so no shader can declare one.
const HIDDEN_PREFIX: &str = "gl_SubroutineSelection.";

/// The short stage names of the hidden uniforms.
const STAGE_NAMES: [(Stage, &str); 6] = [
    (Stage::Vertex, "vertex"),
    (Stage::TessControl, "tess_control"),
    (Stage::TessEval, "tess_eval"),
    (Stage::Geometry, "geometry"),
    (Stage::Fragment, "fragment"),
    (Stage::Compute, "compute"),
];

/// The name of `stage`'s hidden selection uniform (a `uint` array, one word per subroutine
/// uniform location). Per stage, so that merging a geometry or tessellation stage into the
/// vertex stage's block keeps each stage's own.
pub fn hidden_uniform_name(stage: Stage) -> String {
    let short = STAGE_NAMES
        .iter()
        .find(|(s, _)| *s == stage)
        .map_or("vertex", |(_, n)| n);
    format!("{HIDDEN_PREFIX}{short}")
}

/// The stage whose hidden selection uniform `name` is, `None` for every other uniform. A
/// program pipeline's composition prefixes names with their program (`"7\u{1f}..."`), so
/// the name is read after the last separator.
pub fn hidden_uniform_stage(name: &str) -> Option<Stage> {
    let own = name.rsplit('\u{1f}').next().unwrap_or(name);
    let short = own.strip_prefix(HIDDEN_PREFIX)?;
    STAGE_NAMES
        .iter()
        .find(|(_, n)| *n == short)
        .map(|(s, _)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> SubroutineInfo {
        SubroutineInfo {
            functions: vec![
                SubroutineFunction {
                    name: "a".into(),
                    index: 0,
                    types: vec!["T".into()],
                },
                SubroutineFunction {
                    name: "b".into(),
                    index: 1,
                    types: vec!["T".into(), "U".into()],
                },
            ],
            uniforms: vec![
                SubroutineUniform {
                    name: "u".into(),
                    ty: "U".into(),
                    array_len: None,
                    location: 3,
                    compatible: vec![1],
                },
                SubroutineUniform {
                    name: "v[0]".into(),
                    ty: "T".into(),
                    array_len: Some(2),
                    location: 0,
                    compatible: vec![0, 1],
                },
            ],
            locations: 4,
        }
    }

    #[test]
    fn locations_names_and_defaults() {
        let i = info();
        assert_eq!(i.uniform_location("u"), Some(3));
        assert_eq!(i.uniform_location("v"), Some(0));
        assert_eq!(i.uniform_location("v[0]"), Some(0));
        assert_eq!(i.uniform_location("v[1]"), Some(1));
        assert_eq!(i.uniform_location("v[2]"), None);
        assert_eq!(i.uniform_location("u[0]"), None);
        assert_eq!(i.uniform_location("w"), None);
        assert_eq!(
            i.uniform_at(1).map(|(u, e)| (u.name.as_str(), e)),
            Some(("v[0]", 1))
        );
        assert!(i.uniform_at(2).is_none());
        // Location 2 is unused: 0.
        assert_eq!(i.default_selection(), vec![0, 0, 0, 1]);
        assert!(i.link_errors().is_empty());
    }

    #[test]
    fn a_uniform_without_functions_and_the_limits_fail_the_link() {
        let mut i = info();
        i.uniforms[0].compatible.clear();
        assert_eq!(i.link_errors().len(), 1);
        i.locations = MAX_SUBROUTINE_UNIFORM_LOCATIONS + 1;
        assert_eq!(i.link_errors().len(), 2);
    }

    #[test]
    fn hidden_names_round_trip_and_survive_pipeline_prefixes() {
        for (stage, _) in STAGE_NAMES {
            let n = hidden_uniform_name(stage);
            assert_eq!(hidden_uniform_stage(&n), Some(stage));
            assert_eq!(hidden_uniform_stage(&format!("12\u{1f}{n}")), Some(stage));
        }
        assert_eq!(hidden_uniform_stage("gl_DepthRange.near"), None);
        assert_eq!(hidden_uniform_stage("color"), None);
    }
}
