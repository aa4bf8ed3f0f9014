//! Which shader stages of a linked program reference each of its default-block uniforms,
//! uniform blocks, shader storage blocks and atomic counter buffers: the REFERENCED_BY_*
//! resource properties (GL 4.5 core §7.3.1.1, table 7.2) and
//! UNIFORM_BLOCK_REFERENCED_BY_*_SHADER / ATOMIC_COUNTER_BUFFER_REFERENCED_BY_*_SHADER
//! (§7.6.2, §7.7). `ir::link::Linked` has two stage slots only (a geometry or tessellation
//! stage is merged into the vertex slot, a compute stage takes the first), so the stages
//! are recorded here at link from each stage's own module; the queries read them here.

use std::collections::HashMap;

use crate::api::program::Executable;
use crate::ir::{Module, Stage};

/// The stages in the order of the REFERENCED_BY_* properties of table 7.2 (vertex, tess
/// control, tess evaluation, geometry, fragment, compute).
pub(crate) const STAGE_ORDER: [Stage; 6] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];

/// One bit per stage of `STAGE_ORDER`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StageMask(u8);

impl StageMask {
    fn of(stage: Stage) -> StageMask {
        let bit = STAGE_ORDER.iter().position(|&s| s == stage).unwrap_or(0);
        StageMask(1 << bit)
    }

    /// The mask of the two stage slots of `Linked` (`stage_index`, `offsets`): the vertex
    /// (or, in a compute program, compute) stage and the fragment stage. For executables
    /// without `StageRefs`.
    pub fn from_slots(slots: [bool; 2], compute: bool) -> StageMask {
        let first = if compute {
            Stage::Compute
        } else {
            Stage::Vertex
        };
        let mut m = StageMask::default();
        if slots[0] {
            m.0 |= StageMask::of(first).0;
        }
        if slots[1] {
            m.0 |= StageMask::of(Stage::Fragment).0;
        }
        m
    }

    /// Whether the stage at `STAGE_ORDER[k]` is in the mask.
    pub fn has(self, k: usize) -> bool {
        self.0 & (1 << k) != 0
    }
}

/// The stages that declare each resource, by the name the modules give it (a uniform's
/// reflection name, a block's name with `[i]` for each element of an array of blocks, an
/// atomic counter buffer's hidden storage block name).
#[derive(Clone, Debug, Default)]
pub(crate) struct StageRefs {
    uniforms: HashMap<String, StageMask>,
    blocks: HashMap<String, StageMask>,
    storage_blocks: HashMap<String, StageMask>,
}

impl StageRefs {
    /// The references of the program's own stages (stand-in stages are left out: they
    /// declare nothing).
    pub fn of(stages: &[(Stage, Option<&Module>)]) -> StageRefs {
        let mut r = StageRefs::default();
        for &(stage, m) in stages {
            let Some(m) = m else { continue };
            let bit = StageMask::of(stage);
            let add = |map: &mut HashMap<String, StageMask>, name: &str| {
                map.entry(name.to_string()).or_default().0 |= bit.0;
            };
            for u in &m.uniforms {
                add(&mut r.uniforms, &u.name);
            }
            for b in &m.blocks {
                add(&mut r.blocks, &b.name);
            }
            for b in &m.storage_blocks {
                add(&mut r.storage_blocks, &b.name);
            }
        }
        r
    }

    /// The stages that declare the default-block uniform `name`.
    pub fn uniform(&self, name: &str) -> StageMask {
        self.uniforms.get(name).copied().unwrap_or_default()
    }

    /// The stages that declare the uniform block `name`.
    pub fn block(&self, name: &str) -> StageMask {
        self.blocks.get(name).copied().unwrap_or_default()
    }

    /// The stages that declare the storage block (or atomic counter buffer) `name`.
    pub fn storage_block(&self, name: &str) -> StageMask {
        self.storage_blocks.get(name).copied().unwrap_or_default()
    }
}

/// Which stages of `e` reference a resource: from the stages recorded at link
/// (`stage_refs.rs`, `pick` chooses the resource's kind and name), else from the two stage
/// slots of `Linked` (`slots`).
pub(crate) fn stages_of(
    e: &Executable,
    slots: [bool; 2],
    pick: impl FnOnce(&StageRefs) -> StageMask,
) -> StageMask {
    match e.stage_refs.as_deref() {
        Some(r) => pick(r),
        None => StageMask::from_slots(slots, e.compute.is_some()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(stage: Stage, src: &str) -> Module {
        let out = crate::glsl::compile_units(stage, &[src]);
        assert!(out.compiled, "{}", out.info_log);
        out.module.expect("a compiled module")
    }

    #[test]
    fn each_stage_is_recorded_apart() {
        let vs = module(
            Stage::Vertex,
            "#version 150\nuniform A { vec4 a; };\nuniform vec4 u;\nvoid main() { gl_Position = a + u; }\n",
        );
        let gs = module(
            Stage::Geometry,
            "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nuniform B { vec4 b; };\nvoid main() { gl_Position = b; EmitVertex(); }\n",
        );
        let fs = module(
            Stage::Fragment,
            "#version 150\nuniform A { vec4 a; };\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = a + u; }\n",
        );
        let r = StageRefs::of(&[
            (Stage::Vertex, Some(&vs)),
            (Stage::Geometry, Some(&gs)),
            (Stage::Fragment, Some(&fs)),
        ]);
        let bits = |m: StageMask| (0..6).map(|k| m.has(k)).collect::<Vec<_>>();
        assert_eq!(bits(r.block("A")), [true, false, false, false, true, false]);
        assert_eq!(
            bits(r.block("B")),
            [false, false, false, true, false, false]
        );
        assert_eq!(bits(r.uniform("u")), bits(r.block("A")));
        assert_eq!(bits(r.block("C")), [false; 6]);
    }
}
