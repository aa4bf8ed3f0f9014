//! The built-in uniform `gl_DepthRange` and its type `gl_DepthRangeParameters` (GLSL 1.10+,
//! GLSL 4.60 §7.4): declared on first use as an ordinary default-block uniform whose leaves
//! are `gl_DepthRange.near`, `.far` and `.diff`. The front end only declares it; the API
//! writes viewport 0's depth range into those words at each draw
//! (`api::draw::uniform_words_for_draw`), so no stage needs new machinery.
//!
//! Viewport 0, whatever viewport a primitive uses: GLSL 4.30+ §7.4 says "Depth-range state
//! is only for viewport 0" (and piglit's arb_viewport_array render-depthrange checks it).

use std::rc::Rc;

use crate::ir::{BaseType, UniformDecl};

use super::lower::{Lowerer, Root, Sym, VarSym};
use super::types::{vt, StructDef, Type};

/// The reflection names of the three leaves, in word order.
pub const LEAVES: [&str; 3] = [
    "gl_DepthRange.near",
    "gl_DepthRange.far",
    "gl_DepthRange.diff",
];

impl Lowerer {
    /// `gl_DepthRangeParameters` (a struct type) or `gl_DepthRange` (the uniform); `None`
    /// for other names. Both are entered in the global scope, so a second use finds them
    /// there (and the units of one stage share them, `compile_units`).
    pub(super) fn depth_range_builtin(&mut self, name: &str) -> Option<Sym> {
        match name {
            "gl_DepthRangeParameters" => {
                let def = Rc::new(StructDef {
                    name: name.to_string(),
                    members: ["near", "far", "diff"]
                        .iter()
                        .map(|m| (m.to_string(), Type::FLOAT))
                        .collect(),
                });
                let sym = Sym::Struct(def);
                self.scopes[0].insert(name.to_string(), sym.clone());
                Some(sym)
            }
            "gl_DepthRange" => {
                let Some(Sym::Struct(def)) = self.lookup("gl_DepthRangeParameters") else {
                    return None;
                };
                let offset = self.uniform_words;
                self.uniform_words = self.uniform_words.saturating_add(3);
                for (k, leaf) in LEAVES.iter().enumerate() {
                    self.uniforms.push(UniformDecl {
                        name: leaf.to_string(),
                        ty: vt(BaseType::Float, 1, 1),
                        array_len: None,
                        offset: offset + k as u32,
                        stride: 1,
                        bindless: false,
                        bound: false,
                        binding: None,
                        init: None,
                        location: None,
                    });
                }
                let sym = Sym::Var(Rc::new(VarSym {
                    ty: Type::Struct(def),
                    root: Root::Uniform(offset),
                    base: 0,
                    writable: false,
                    konst: None,
                }));
                self.scopes[0].insert(name.to_string(), sym.clone());
                Some(sym)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::glsl::compile;
    use crate::ir::Stage;

    /// The default-block words a module gives each leaf of `gl_DepthRange`.
    fn leaf_offsets(src: &str, stage: Stage) -> Vec<(String, u32)> {
        let out = compile(stage, src);
        let m = out.module.unwrap_or_else(|| panic!("{}", out.info_log));
        m.uniforms
            .iter()
            .filter(|u| u.name.starts_with("gl_DepthRange"))
            .map(|u| (u.name.clone(), u.offset))
            .collect()
    }

    #[test]
    fn declared_once_after_the_user_uniforms_it_follows() {
        let src = "#version 330
uniform vec4 a;
out vec4 c;
void main() { c = a + vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 0.0); }";
        let leaves = leaf_offsets(src, Stage::Fragment);
        let want: Vec<(String, u32)> = super::LEAVES
            .iter()
            .enumerate()
            .map(|(k, n)| (n.to_string(), 4 + k as u32))
            .collect();
        assert_eq!(leaves, want);
    }

    #[test]
    fn every_version_and_stage_has_it() {
        for (stage, src) in [
            (
                Stage::Vertex,
                "void main() { gl_Position = vec4(gl_DepthRange.diff); }",
            ),
            (
                Stage::Fragment,
                "#version 110\nvoid main() { gl_FragColor = vec4(gl_DepthRange.far); }",
            ),
            (
                Stage::Compute,
                "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430) buffer B { float f; };\nvoid main() { f = gl_DepthRange.near; }",
            ),
        ] {
            assert_eq!(leaf_offsets(src, stage).len(), 3, "{src}");
        }
    }

    #[test]
    fn a_shader_that_does_not_use_it_has_no_such_uniform() {
        let src = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }";
        assert!(leaf_offsets(src, Stage::Fragment).is_empty());
    }

    #[test]
    fn the_struct_type_is_usable_and_read_only_stays_read_only() {
        let ok = "#version 330
out vec4 c;
gl_DepthRangeParameters f(gl_DepthRangeParameters p) { return p; }
void main() { gl_DepthRangeParameters r = f(gl_DepthRange); c = vec4(r.near, r.far, r.diff, 1.0); }";
        assert_eq!(leaf_offsets(ok, Stage::Fragment).len(), 3);
        for bad in [
            "#version 330\nout vec4 c;\nvoid main() { gl_DepthRange.far = 1.0; c = vec4(0.0); }",
            "#version 330\nout vec4 c;\nvoid main() { gl_DepthRange = gl_DepthRange; c = vec4(0.0); }",
        ] {
            let out = compile(Stage::Fragment, bad);
            assert!(!out.compiled, "{bad}");
        }
    }
}
