//! Tessellation at the API (GL 4.5 core §11.2, ARB_tessellation_shader): linking a program
//! of vertex, tessellation control (optional), evaluation, geometry (optional) and
//! fragment shaders into an executable, glPatchParameteri / glPatchParameterfv and their
//! queries, the draw-time rule that GL_PATCHES goes with a tessellation evaluation stage
//! and only with it (§10.1.15, §11.2), the program queries TESS_CONTROL_OUTPUT_VERTICES
//! and TESS_GEN_* (§7.13), and the GL_MAX_TESS_* / GL_MAX_PATCH_VERTICES limits
//! (llvmpipe's values). Separable programs keep their tessellation modules for program
//! pipelines (`pipeline.rs` composes them with `link_modules`).

use std::sync::Arc;

use crate::api::context::{dirty, BackEnd, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::program::{Executable, Program};
use crate::gl::enums as gl;
use crate::ir::geometry::merge_into_vertex;
use crate::ir::link::{self, LinkOptions};
use crate::ir::tess::{self as tess, Mode, Spacing};
use crate::ir::{BuiltinOutput, Module};
use crate::raster::{ProgramCode, TessCode, Topology};

/// glLinkProgram of a program with tessellation stages: the layout checks and the VS →
/// TCS → TES links (`ir::tess`), the control and evaluation shaders' uniforms and blocks
/// merged into the vertex stage's (they run with its data, as a geometry shader does),
/// the evaluation shader's outputs linked to the fragment shader, and the stages through
/// the back end.
pub(crate) fn link_modules(
    vs: &Module,
    tcs: Option<&Module>,
    tes: &Module,
    gs: Option<&Module>,
    fs: &Module,
    opts: &LinkOptions,
    back_end: &BackEnd,
) -> Result<Executable, String> {
    let fail = |errs: Vec<link::LinkError>| -> String {
        errs.iter().map(|e| format!("error: {e}\n")).collect()
    };
    let mut errors = Vec::new();
    tess::check_layout(tcs, tes, &mut errors);
    let inputs = tess::link_inputs(vs, tcs, tes, opts.open_interfaces, &mut errors);
    let (merged, tcs) = match tcs {
        Some(t) => {
            let (m, t) = merge_into_vertex(vs, t, &mut errors);
            (m, Some(t))
        }
        None => (vs.clone(), None),
    };
    let (mut merged, tes) = merge_into_vertex(&merged, tes, &mut errors);
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    // The fragment shader (or the geometry shader) reads what the evaluation shader
    // writes.
    merged.outputs = tes.outputs.clone();
    merged.version = tes.version;
    let vs_code = back_end(vs).map_err(|e| format!("error: vertex shader: {e}\n"))?;
    let tcs_code = match &tcs {
        Some(t) => {
            Some(back_end(t).map_err(|e| format!("error: tessellation control shader: {e}\n"))?)
        }
        None => None,
    };
    let tes_code =
        back_end(&tes).map_err(|e| format!("error: tessellation evaluation shader: {e}\n"))?;
    let control_slot = |b: BuiltinOutput| {
        tcs.as_ref()
            .and_then(|t| t.outputs.iter().find(|o| o.builtin == Some(b)))
            .map(|o| o.slot)
    };
    let code = TessCode {
        vertices: tcs.as_ref().and_then(|t| t.tess.vertices).unwrap_or(0),
        control_words: tcs.as_ref().map_or(0, |t| t.func.output_words()),
        outer_slot: control_slot(BuiltinOutput::TessLevelOuter),
        inner_slot: control_slot(BuiltinOutput::TessLevelInner),
        control: tcs_code,
        eval_words: tes_code.output_words().max(tes.func.output_words()),
        eval: tes_code,
        inputs,
        mode: tes.tess.mode.unwrap_or(Mode::Triangles),
        spacing: tes.tess.spacing.unwrap_or_default(),
        cw: tes.tess.cw.unwrap_or(false),
        point_mode: tes.tess.point_mode,
    };
    let tess_writes = tes.writes_storage() || tcs.as_ref().is_some_and(|t| t.writes_storage());
    // A geometry shader after tessellation: linked as it is after a vertex shader, the
    // evaluation shader (with the merged uniforms) in the vertex shader's place.
    if let Some(gs) = gs {
        let l = crate::ir::geometry::link_geometry(&merged, gs, fs, opts).map_err(fail)?;
        let gs_code = back_end(&l.gs).map_err(|e| format!("error: geometry shader: {e}\n"))?;
        let fs_code = back_end(fs).map_err(|e| format!("error: fragment shader: {e}\n"))?;
        let mut exe = crate::api::geometry::executable_of(vs, fs, l, [vs_code, gs_code, fs_code])?;
        let Some(program) = Arc::get_mut(&mut exe.code) else {
            unreachable!("the executable's code was made just now and is not shared")
        };
        program.tess = Some(Arc::new(code));
        exe.writes_storage |= tess_writes;
        return Ok(exe);
    }
    let linked = link::link(&merged, fs, opts).map_err(fail)?;
    let fs_code = back_end(fs).map_err(|e| format!("error: fragment shader: {e}\n"))?;
    let out = &tes.outputs;
    let builtin = |b: BuiltinOutput| out.iter().find(|o| o.builtin == Some(b));
    let program = ProgramCode {
        vs_output_words: vs_code.output_words().max(linked.vs_output_words),
        fs_input_words: fs_code.input_words().max(linked.fs_input_words),
        fs_output_words: fs_code.output_words().max(linked.fs_output_words),
        vs: vs_code,
        fs: fs_code,
        position_slot: linked.position_slot,
        point_size_slot: builtin(BuiltinOutput::PointSize).map(|o| o.slot),
        clip_distances: link::clip_distance_output(&tes),
        cull_distances: link::cull_distance_output(&tes),
        varyings: linked.varyings.clone(),
        color_slots: linked.color_slots.clone(),
        src1_slot: linked.src1_slot,
        frag_depth_slot: linked.frag_depth_slot,
        // A fragment shader with side effects tests late (as `Context::link_modules`).
        uses_discard: linked.uses_discard || fs.writes_storage(),
        early_fragment_tests: linked.early_fragment_tests,
        frag_coord_origin_upper_left: fs.frag_coord_origin_upper_left,
        frag_coord_pixel_center_integer: fs.frag_coord_pixel_center_integer,
        gs: None,
        vs_select_slots: [None; 2],
        tess: Some(Arc::new(code)),
    };
    let mut exe = Executable::new(linked, Arc::new(program));
    exe.writes_storage = fs.writes_storage() || vs.writes_storage() || tess_writes;
    Ok(exe)
}

/// The draw-time rule of GL 4.5 core §10.1.15 and §11.2: with a tessellation evaluation
/// stage the mode must be GL_PATCHES, and GL_PATCHES needs one (INVALID_OPERATION).
pub(crate) fn check_draw(code: &ProgramCode, mode: Topology) -> GlResult<()> {
    match (code.tess.is_some(), mode == Topology::Patches) {
        (true, false) => Err(GlError::InvalidOperation(
            "a program with tessellation draws GL_PATCHES only",
        )),
        (false, true) => Err(GlError::InvalidOperation(
            "GL_PATCHES needs a tessellation evaluation shader",
        )),
        _ => Ok(()),
    }
}

/// glGetProgramiv's TESS_CONTROL_OUTPUT_VERTICES and TESS_GEN_MODE / _SPACING /
/// _VERTEX_ORDER / _POINT_MODE (GL 4.5 core §7.13): INVALID_OPERATION unless the program
/// is linked with that stage. `None` for other names.
pub(crate) fn program_parameter(p: &Program, pname: u32) -> Option<GlResult<i32>> {
    if !matches!(
        pname,
        gl::TESS_CONTROL_OUTPUT_VERTICES
            | gl::TESS_GEN_MODE
            | gl::TESS_GEN_SPACING
            | gl::TESS_GEN_VERTEX_ORDER
            | gl::TESS_GEN_POINT_MODE
    ) {
        return None;
    }
    let exe = p.exe.as_ref().filter(|_| p.link_status);
    // The stages as linked: a separable program keeps its modules (a control shader
    // without an evaluation shader has no tessellation in its own executable).
    let sep = exe.and_then(|e| e.stages.as_deref());
    let t = exe.and_then(|e| e.code.tess.clone());
    if pname == gl::TESS_CONTROL_OUTPUT_VERTICES {
        let vertices = match (sep, &t) {
            (Some(s), _) => s.tcs.as_ref().and_then(|m| m.tess.vertices),
            (None, Some(t)) => t.control.as_ref().map(|_| t.vertices),
            (None, None) => None,
        };
        return Some(vertices.map(|v| v as i32).ok_or(GlError::InvalidOperation(
            "the program is not linked with a tessellation control shader",
        )));
    }
    let layout = match (sep, &t) {
        (Some(s), _) => s.tes.as_ref().map(|m| {
            let l = &m.tess;
            (
                l.mode.unwrap_or(Mode::Triangles),
                l.spacing.unwrap_or_default(),
                l.cw.unwrap_or(false),
                l.point_mode,
            )
        }),
        (None, Some(t)) => Some((t.mode, t.spacing, t.cw, t.point_mode)),
        (None, None) => None,
    };
    let Some((mode, spacing, cw, point_mode)) = layout else {
        return Some(Err(GlError::InvalidOperation(
            "the program is not linked with a tessellation evaluation shader",
        )));
    };
    Some(Ok(match pname {
        gl::TESS_GEN_MODE => {
            (match mode {
                Mode::Triangles => gl::TRIANGLES,
                Mode::Quads => gl::QUADS,
                Mode::Isolines => gl::ISOLINES,
            }) as i32
        }
        gl::TESS_GEN_SPACING => {
            (match spacing {
                Spacing::Equal => gl::EQUAL,
                Spacing::FractionalEven => gl::FRACTIONAL_EVEN,
                Spacing::FractionalOdd => gl::FRACTIONAL_ODD,
            }) as i32
        }
        gl::TESS_GEN_VERTEX_ORDER => (if cw { gl::CW } else { gl::CCW }) as i32,
        _ => point_mode as i32,
    }))
}

/// The GL_MAX_TESS_* limits and GL_MAX_PATCH_VERTICES glGetIntegerv answers (GL 4.5 core
/// table 23.64), as llvmpipe reports them; `None` for other names.
pub(crate) fn limit(pname: u32) -> Option<i32> {
    let c = tess::MAX_STAGE_COMPONENTS as i32;
    Some(match pname {
        gl::MAX_PATCH_VERTICES => tess::MAX_PATCH_VERTICES as i32,
        gl::MAX_TESS_GEN_LEVEL => tess::MAX_GEN_LEVEL as i32,
        gl::MAX_TESS_CONTROL_INPUT_COMPONENTS
        | gl::MAX_TESS_CONTROL_OUTPUT_COMPONENTS
        | gl::MAX_TESS_EVALUATION_INPUT_COMPONENTS
        | gl::MAX_TESS_EVALUATION_OUTPUT_COMPONENTS => c,
        gl::MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS => {
            tess::MAX_CONTROL_TOTAL_OUTPUT_COMPONENTS as i32
        }
        gl::MAX_TESS_PATCH_COMPONENTS => tess::MAX_PATCH_COMPONENTS as i32,
        gl::MAX_TESS_CONTROL_UNIFORM_COMPONENTS | gl::MAX_TESS_EVALUATION_UNIFORM_COMPONENTS => {
            link::MAX_UNIFORM_COMPONENTS as i32
        }
        gl::MAX_TESS_CONTROL_UNIFORM_BLOCKS | gl::MAX_TESS_EVALUATION_UNIFORM_BLOCKS => {
            link::MAX_STAGE_UNIFORM_BLOCKS as i32
        }
        gl::MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS | gl::MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS => {
            crate::api::context::limits::MAX_TEXTURE_IMAGE_UNITS
        }
        // Default-block components plus every block at its largest (GL 4.5 core §7.6.2).
        gl::MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS
        | gl::MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS => {
            use crate::api::context::limits as l;
            l::MAX_UNIFORM_COMPONENTS + l::MAX_STAGE_UNIFORM_BLOCKS * l::MAX_UNIFORM_BLOCK_SIZE / 4
        }
        _ => return None,
    })
}

gl_commands! {
    /// glPatchParameteri (GL 4.5 core §10.1.15): GL_PATCH_VERTICES only.
    "glPatchParameteri" fn patch_parameteri(pname: u32, value: i32) = try_patch_parameteri;
    /// glPatchParameterfv (GL 4.5 core §11.2.3): the default tessellation levels.
    "glPatchParameterfv"
    fn patch_parameterfv(pname: u32, values: &[f32]) = try_patch_parameterfv;
}

impl Context {
    pub(crate) fn try_patch_parameteri(&mut self, pname: u32, value: i32) -> GlResult<()> {
        if pname != gl::PATCH_VERTICES {
            return Err(GlError::BadEnum("glPatchParameteri pname", pname));
        }
        if value <= 0 || value > tess::MAX_PATCH_VERTICES as i32 {
            return Err(GlError::InvalidValue(
                "glPatchParameteri: GL_PATCH_VERTICES must be 1 to GL_MAX_PATCH_VERTICES",
            ));
        }
        self.fixed.patch.vertices = value as u32;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_patch_parameterfv(&mut self, pname: u32, values: &[f32]) -> GlResult<()> {
        let p = &mut self.fixed.patch;
        match pname {
            gl::PATCH_DEFAULT_OUTER_LEVEL => {
                let v = values.get(..4).ok_or(GlError::InvalidValue(
                    "glPatchParameterfv: the outer levels need 4 values",
                ))?;
                p.outer.copy_from_slice(v);
            }
            gl::PATCH_DEFAULT_INNER_LEVEL => {
                let v = values.get(..2).ok_or(GlError::InvalidValue(
                    "glPatchParameterfv: the inner levels need 2 values",
                ))?;
                p.inner.copy_from_slice(v);
            }
            _ => return Err(GlError::BadEnum("glPatchParameterfv pname", pname)),
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }
}
