//! Shader and program objects (GL 4.5 core chapter 7): compile through the GLSL front end,
//! link through `ir::link` and the JIT, the program's default-block uniform values with GL's
//! type checks (§7.6.1), sampler uniforms (texture units or bindless handles), uniform block
//! bindings, attribute locations, and reflection queries.

use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::Arc;

use crate::api::context::{limits, BackEnd, Context};
use crate::api::dispatch::{gl_commands, Group};
use crate::api::error::{GlError, GlResult};
use crate::api::names::ProgramObjectName;
use crate::gl::enums as gl;
use crate::ir::link::{self, LinkOptions, Linked};
use crate::ir::{BaseType, Module, Stage};
use crate::raster::ProgramCode;
use crate::sampler::TextureHandle;

/// A shader object.
#[derive(Debug, Clone)]
pub(crate) struct Shader {
    pub ty: u32,
    pub stage: Stage,
    pub source: String,
    /// The stage's module when the last compile made this shader a whole stage.
    pub module: Option<Arc<Module>>,
    /// GL_COMPILE_STATUS of the last compile.
    pub compiled: bool,
    /// The source as it was at the last successful compile: what a link combines with the
    /// other shaders of the stage (glShaderSource afterwards does not change what links,
    /// GL 4.5 core §7.3).
    pub compiled_source: Arc<str>,
    pub info_log: String,
    pub delete_pending: bool,
}

/// What a sampler uniform element holds (ARB_bindless_texture: a texture unit set through
/// glUniform1i, or a handle set through glUniformHandleui64ARB).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum SamplerValue {
    Unit(u32),
    Handle(TextureHandle),
}

/// A successfully linked program: its interface, code and uniform state.
pub(crate) struct Executable {
    pub linked: Linked,
    pub code: Arc<ProgramCode>,
    /// Default-block words per stage (vertex, fragment); sampler words are filled at draw.
    pub words: [Vec<u32>; 2],
    /// Sampler uniform values by location.
    pub samplers: HashMap<u32, SamplerValue>,
    /// Binding point of each program uniform block.
    pub block_bindings: Vec<u32>,
    /// Binding point of each shader storage block (glShaderStorageBlockBinding).
    pub storage_bindings: Vec<u32>,
    /// Whether either stage stores to storage blocks or updates them with atomics: its
    /// draws run at once and write back (`storage_buffer.rs`).
    pub writes_storage: bool,
    /// Whether the program has an image uniform: its draws and dispatches copy the image
    /// units (`image_unit.rs`).
    pub uses_images: bool,
    /// A compute program's code (`compute.rs`): then `code` is a stand-in no draw runs,
    /// and the compute stage is stage 0 of `linked` and `words`.
    pub compute: Option<Arc<crate::jit::compute::ComputeCode>>,
    /// What transform feedback captures (`transform_feedback.rs`; empty: nothing).
    pub xfb: Arc<crate::api::transform_feedback::XfbLayout>,
    /// A number no other executable of the process has: program pipelines key their
    /// compositions by it (`pipeline.rs`), so a relink is seen without a hook.
    pub serial: u64,
    /// The stages of a program linked with PROGRAM_SEPARABLE, as linked, for program
    /// pipelines to compose (`pipeline.rs`); `None` for other programs.
    pub stages: Option<Arc<SeparableStages>>,
    /// Where the program reads `gl_DepthRange` (`viewport::depth_range_slots`), found once
    /// here so a draw does not search the uniforms for it.
    pub depth_range_slots: Vec<crate::api::viewport::DepthRangeSlot>,
    /// The subroutines of each stage the program has (`ir::subroutine`; stand-in stages
    /// are not here), for the queries and the context's selection (`subroutine.rs`).
    pub subroutines: Vec<(Stage, crate::ir::subroutine::SubroutineInfo)>,
    /// Where the program reads each stage's subroutine selection
    /// (`subroutine::subroutine_slots`); empty for most programs.
    pub subroutine_slots: Vec<crate::api::subroutine::SubroutineSlot>,
    /// Which of the program's own stages declare each uniform and block, for the
    /// REFERENCED_BY_* queries (`stage_refs.rs`); `None` for executables a program pipeline
    /// composes, which no query reaches.
    pub stage_refs: Option<Arc<crate::api::stage_refs::StageRefs>>,
}

/// The stages a separable program was linked with (GL 4.5 core §7.4): the modules a
/// program pipeline composes with other programs' stages, and the link options that
/// placed its attributes and colour outputs. Stand-in stages are not here.
pub(crate) struct SeparableStages {
    pub vs: Option<Arc<Module>>,
    pub tcs: Option<Arc<Module>>,
    pub tes: Option<Arc<Module>>,
    pub gs: Option<Arc<Module>>,
    pub fs: Option<Arc<Module>>,
    pub opts: LinkOptions,
}

/// The next `Executable::serial`.
fn next_serial() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Executable {
    /// A texture unit two active samplers of different types refer to, if any: GL 4.5 core
    /// §7.10 ("It is not allowed to have variables of different sampler types pointing to
    /// the same texture image unit within a program object"): the program then fails
    /// glValidateProgram, and its draws and dispatches are INVALID_OPERATION. Samplers set
    /// to bindless handles and image uniforms (image units) take no part.
    pub(crate) fn sampler_unit_conflict(&self) -> Option<u32> {
        // Runs at every draw: linear in the sampler uniforms, nothing for fewer than two.
        if self.samplers.len() < 2 {
            return None;
        }
        let mut seen: SmallVec<[(u32, BaseType); 8]> = SmallVec::new();
        for (&location, value) in &self.samplers {
            let SamplerValue::Unit(unit) = *value else {
                continue;
            };
            let Some((index, _)) = self.linked.uniform_at(location as i32) else {
                continue;
            };
            let base = self.linked.uniforms[index as usize].ty.base;
            if base.is_image() {
                continue;
            }
            match seen.iter().find(|(u, _)| *u == unit) {
                Some(&(_, b)) if b != base => return Some(unit),
                Some(_) => {}
                None => seen.push((unit, base)),
            }
        }
        None
    }

    /// `sampler_unit_conflict` as the draw and dispatch error.
    pub(crate) fn check_sampler_units(&self) -> GlResult<()> {
        match self.sampler_unit_conflict() {
            Some(_) => Err(GlError::InvalidOperation(
                "two samplers of different types use one texture unit (GL 4.5 core §7.10)",
            )),
            None => Ok(()),
        }
    }

    pub(crate) fn new(linked: Linked, code: Arc<ProgramCode>) -> Executable {
        let mut samplers = HashMap::new();
        for u in linked.uniforms.iter().filter(|u| u.is_sampler()) {
            for e in 0..u.elements() {
                // `layout(binding = N)` on an array gives element i unit N + i (GLSL 4.50
                // §4.4.6).
                let unit =
                    u.binding.unwrap_or(0).max(0) as u32 + if u.binding.is_some() { e } else { 0 };
                samplers.insert(u.location + e, SamplerValue::Unit(unit));
            }
        }
        let mut words = [
            vec![0; linked.vs_uniform_words as usize],
            vec![0; linked.fs_uniform_words as usize],
        ];
        // Uniform initializers take effect at link (GLSL 4.60 §4.3.5), in every stage.
        for u in &linked.uniforms {
            let Some(init) = &u.init else { continue };
            for (stage, off) in u.offsets.iter().enumerate() {
                let Some(at) = off.map(|o| o as usize) else {
                    continue;
                };
                if let Some(dst) = words[stage].get_mut(at..at + init.len()) {
                    dst.copy_from_slice(init);
                }
            }
        }
        Executable {
            words,
            block_bindings: linked.blocks.iter().map(|b| b.binding).collect(),
            storage_bindings: linked.storage_blocks.iter().map(|b| b.binding).collect(),
            writes_storage: false,
            uses_images: linked.uniforms.iter().any(|u| u.ty.base.is_image()),
            compute: None,
            xfb: Arc::default(),
            serial: next_serial(),
            stages: None,
            samplers,
            depth_range_slots: crate::api::viewport::depth_range_slots(&linked.uniforms),
            subroutines: Vec::new(),
            stage_refs: None,
            subroutine_slots: crate::api::subroutine::subroutine_slots(&linked.uniforms),
            linked,
            code,
        }
    }
}

/// One compiled shader object of a stage at link time: its source as compiled, and its
/// module when it is a whole stage by itself.
type Unit = (Arc<str>, Option<Arc<Module>>);

/// The one module of a stage from its attached shaders (GLSL 4.60 §2.1), `None` when the
/// stage has none or its units do not combine (the errors go to `log`). One shader that is
/// a whole stage is used as compiled; anything else is lowered again together by
/// `glsl::compile_units` (the real front end: the context's front end compiles one unit).
fn combine_units(stage: Stage, units: &[Unit], log: &mut String) -> Option<Arc<Module>> {
    match units {
        [] => None,
        [(_, Some(m))] => Some(m.clone()),
        _ => {
            let sources: Vec<&str> = units.iter().map(|(s, _)| &**s).collect();
            let out = crate::glsl::compile_units(stage, &sources);
            let name = match stage {
                Stage::Vertex => "vertex",
                Stage::Fragment => "fragment",
                Stage::Compute => "compute",
                Stage::Geometry => "geometry",
                Stage::TessControl => "tessellation control",
                Stage::TessEval => "tessellation evaluation",
            };
            match out.module {
                Some(m) if out.compiled => Some(Arc::new(m)),
                _ => {
                    let before = log.len();
                    for line in out.info_log.lines().filter(|l| l.contains("error")) {
                        log.push_str(&format!("{name} shader {line}\n"));
                    }
                    if log.len() == before {
                        log.push_str(&format!("error: {name} shader: the units do not link\n"));
                    }
                    None
                }
            }
        }
    }
}

/// glLinkProgram's work between gathering the shaders and storing the result (run on a
/// compiler thread): each stage's units become one module (GLSL 4.60 §2.1, so that errors
/// within a stage are reported whatever the other stage is), then `ir::link` and the JIT.
/// `log` holds errors found while gathering; the result is the executable or the info log.
///
/// A `separable` program (GL 4.5 core §7.4) may have any subset of the stages: a missing
/// vertex stage is a stand-in that writes nothing, linked with open interfaces (the
/// fragment or geometry inputs it does not write read 0 when the program itself is used),
/// and the real stages are kept in `Executable::stages` for program pipelines.
#[allow(clippy::too_many_arguments)]
fn link_units(
    [vs, gs, fs]: [Vec<Unit>; 3],
    [tcs, tes]: [Vec<Unit>; 2],
    cs: Vec<Unit>,
    opts: &LinkOptions,
    xfb: (&[String], bool),
    separable: bool,
    back_end: &BackEnd,
    mut log: String,
) -> Result<Executable, String> {
    if log.is_empty() && !cs.is_empty() {
        // GL 4.5 core §7.3: a program with a compute shader has no other stage.
        if !vs.is_empty() || !fs.is_empty() || !gs.is_empty() || !tcs.is_empty() || !tes.is_empty()
        {
            return Err(
                "error: a program with a compute shader cannot have shaders of other stages\n"
                    .into(),
            );
        }
        if let Some(cs) = combine_units(Stage::Compute, &cs, &mut log) {
            let subroutines = stage_subroutines(&[(Stage::Compute, Some(&cs))])?;
            crate::api::image_unit::check_image_uniforms(&[(Stage::Compute, Some(&cs))])?;
            let mut exe = crate::api::compute::link_compute(&cs, back_end)?;
            exe.subroutines = subroutines;
            exe.stage_refs = Some(Arc::new(crate::api::stage_refs::StageRefs::of(&[(
                Stage::Compute,
                Some(&cs),
            )])));
            // A pipeline's compute stage runs the program's own executable: nothing to
            // compose, only the mark that it was linked separable.
            exe.stages = separable.then(|| {
                Arc::new(SeparableStages {
                    vs: None,
                    tcs: None,
                    tes: None,
                    gs: None,
                    fs: None,
                    opts: opts.clone(),
                })
            });
            return Ok(exe);
        }
    }
    if log.is_empty() {
        let vs = combine_units(Stage::Vertex, &vs, &mut log);
        let gs = combine_units(Stage::Geometry, &gs, &mut log);
        let tcs = combine_units(Stage::TessControl, &tcs, &mut log);
        let tes = combine_units(Stage::TessEval, &tes, &mut log);
        let fs = combine_units(Stage::Fragment, &fs, &mut log);
        if !log.is_empty() {
            return Err(log);
        }
        let stage_modules = [
            (Stage::Vertex, vs.as_deref()),
            (Stage::TessControl, tcs.as_deref()),
            (Stage::TessEval, tes.as_deref()),
            (Stage::Geometry, gs.as_deref()),
            (Stage::Fragment, fs.as_deref()),
        ];
        let subroutines = stage_subroutines(&stage_modules)?;
        crate::api::image_unit::check_image_uniforms(&stage_modules)?;
        let stage_refs = Arc::new(crate::api::stage_refs::StageRefs::of(&stage_modules));
        // GL 4.5 core §7.3: a control shader needs an evaluation shader (in one program
        // that is not separable).
        if tcs.is_some() && tes.is_none() && !separable {
            return Err(
                "error: a program with a tessellation control shader needs a tessellation evaluation shader\n"
                    .into(),
            );
        }
        // A separable control shader without an evaluation shader still declares its
        // output patch size (GLSL 4.00 §4.3.8.2); the program's own executable leaves it
        // out (tessellation is active only with an evaluation stage, GL 4.5 core §11.2), and
        // a pipeline composes it with another program's evaluation shader.
        if let (Some(t), None) = (&tcs, &tes) {
            if t.tess.vertices.is_none() {
                return Err("error: the tessellation control shader does not declare its output patch size (layout(vertices = N) out;)\n".into());
            }
        }
        let mut opts = opts.clone();
        let stages = separable.then(|| SeparableStages {
            vs: vs.clone(),
            tcs: tcs.clone(),
            tes: tes.clone(),
            gs: gs.clone(),
            fs: fs.clone(),
            opts: opts.clone(),
        });
        let version = |m: &Option<Arc<Module>>| m.as_ref().map(|m| m.version);
        let vs = match vs {
            Some(vs) => vs,
            // GL 4.5 core §7.3: only a separable program may leave the vertex stage out
            // when it has a geometry or tessellation stage; any program may be a fragment
            // shader alone (vertex results are then undefined: the stand-in writes none,
            // as a separable program's does).
            None if (separable && (gs.is_some() || tcs.is_some() || tes.is_some()))
                || (gs.is_none() && tcs.is_none() && tes.is_none() && fs.is_some()) =>
            {
                opts.open_interfaces = true;
                let first = [&tcs, &tes, &gs, &fs].into_iter().find_map(version);
                stand_in_shader(Stage::Vertex, first.unwrap_or(150))?
            }
            None if gs.is_some() || tcs.is_some() || tes.is_some() => {
                return Err(
                    "error: a program with a geometry or tessellation shader needs a vertex shader unless it is separable\n"
                        .into(),
                )
            }
            None => return Err("error: a program needs a vertex shader\n".into()),
        };
        // GL 4.5 core §7.3, §15.1: the fragment stage may be left out (transform feedback
        // programs usually do). Its fragments' colours are undefined; softgl links such a
        // program against an empty fragment shader, so they write no colour while depth
        // and stencil work as with any shader that leaves gl_FragDepth alone.
        let fs = match fs {
            Some(fs) => fs,
            None => stand_in_shader(Stage::Fragment, vs.version)?,
        };
        // A separable control shader without an evaluation shader: its uniforms join the
        // vertex stage's as they would beside one, so that glGetUniformLocation and
        // glProgramUniform reach them for the pipelines that compose the stage.
        let vs = match (&tcs, &tes) {
            (Some(t), None) => {
                let mut errors = Vec::new();
                let (merged, _) = crate::ir::geometry::merge_into_vertex(&vs, t, &mut errors);
                if !errors.is_empty() {
                    return Err(errors.iter().map(|e| format!("error: {e}\n")).collect());
                }
                Arc::new(merged)
            }
            _ => vs,
        };
        // Transform feedback captures the last vertex processing stage's outputs.
        let last = gs.as_deref().or(tes.as_deref()).unwrap_or(&vs);
        let layout = crate::api::transform_feedback::link_varyings(last, xfb.0, xfb.1)?;
        let mut exe = match (gs, tes) {
            (gs, Some(tes)) => crate::api::tess::link_modules(
                &vs,
                tcs.as_deref(),
                &tes,
                gs.as_deref(),
                &fs,
                &opts,
                back_end,
            ),
            (Some(gs), None) => crate::api::geometry::link_modules(&vs, &gs, &fs, &opts, back_end),
            (None, None) => Context::link_modules(&vs, &fs, &opts, back_end),
        }?;
        exe.xfb = Arc::new(layout);
        exe.stages = stages.map(Arc::new);
        exe.subroutines = subroutines;
        exe.stage_refs = Some(stage_refs);
        return Ok(exe);
    }
    Err(log)
}

/// The subroutines of each stage the program has (not its stand-in stages), or the link
/// errors of GL 4.5 core §7.10 (`SubroutineInfo::link_errors`).
fn stage_subroutines(
    stages: &[(Stage, Option<&Module>)],
) -> Result<Vec<(Stage, crate::ir::subroutine::SubroutineInfo)>, String> {
    let mut log = String::new();
    let mut out = Vec::new();
    for (stage, m) in stages {
        let Some(m) = m else { continue };
        for e in m.subroutines.link_errors() {
            log.push_str(&format!("error: {stage:?} shader: {e}\n"));
        }
        out.push((*stage, m.subroutines.clone()));
    }
    if log.is_empty() {
        Ok(out)
    } else {
        Err(log)
    }
}

/// A stage a program does not have: `void main() {}`, which writes no output, at
/// `version`. The fragment stage of any program without one; the vertex stage of a
/// separable program without one.
pub(crate) fn stand_in_shader(stage: Stage, version: u32) -> Result<Arc<Module>, String> {
    let out = crate::glsl::compile_units(stage, &["#version 150\nvoid main() {}\n"]);
    match out.module {
        Some(mut m) if out.compiled => {
            m.version = version;
            Ok(Arc::new(m))
        }
        _ => Err(format!(
            "error: the empty {stage:?} stage did not compile: {}\n",
            out.info_log
        )),
    }
}

/// A program object.
#[derive(Default)]
pub(crate) struct Program {
    pub shaders: Vec<ProgramObjectName>,
    pub attrib_bindings: Vec<(String, u32)>,
    /// glBindFragDataLocation bindings (name, colour number), for the next link.
    pub frag_data_bindings: Vec<(String, u32)>,
    /// glBindFragDataLocationIndexed bindings of index 1 (colour number 0), for the next
    /// link: the second source colour of dual-source blending.
    pub frag_data_index1: Vec<String>,
    pub link_status: bool,
    pub validate_status: bool,
    pub info_log: String,
    pub exe: Option<Executable>,
    pub delete_pending: bool,
    /// How many contexts of the share group have it current: a program flagged for deletion
    /// goes when no context uses it any more (GL 4.5 core §7.3, §5.1.3).
    pub current_in: u32,
    /// glProgramParameteri state (`api/program_binary.rs`).
    pub params: crate::api::program_binary::ProgramParams,
    /// glTransformFeedbackVaryings' names and GL_SEPARATE_ATTRIBS, for the next link.
    pub xfb_varyings: Vec<String>,
    pub xfb_separate: bool,
}

/// Shaders and programs share one namespace (GL 4.5 core §7.1).
pub(crate) enum ProgramObject {
    Shader(Shader),
    Program(Box<Program>),
}

/// The base type a glUniform* command passes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum UniformKind {
    Float,
    Int,
    Uint,
    /// glUniform*ui64ARB (ARB_gpu_shader_int64): two words per component, low first.
    Uint64,
    /// glUniform*d (GL 4.0): IEEE doubles, two words per component, low first.
    Double,
}

fn info_len(s: &str) -> i32 {
    // INFO_LOG_LENGTH counts the terminating null; 0 for an empty log.
    if s.is_empty() {
        0
    } else {
        s.len() as i32 + 1
    }
}

gl_commands! {
    /// glShaderSource: the strings are concatenated.
    "glShaderSource" fn shader_source(shader: u32, strings: &[&str]) = try_shader_source;
    /// glGetShaderSource.
    "glGetShaderSource" fn get_shader_source(shader: u32) -> String = try_get_shader_source;
    /// glGetShaderiv.
    "glGetShaderiv" fn get_shaderiv(shader: u32, pname: u32) -> i32 = try_get_shaderiv;
    /// glGetShaderInfoLog.
    "glGetShaderInfoLog" fn get_shader_info_log(shader: u32) -> String = try_get_shader_info_log;
    /// glAttachShader.
    "glAttachShader" fn attach_shader(program: u32, shader: u32) = try_attach_shader;
    /// glDetachShader.
    "glDetachShader" fn detach_shader(program: u32, shader: u32) = try_detach_shader;
    /// glGetAttachedShaders.
    "glGetAttachedShaders"
    fn get_attached_shaders(program: u32) -> Vec<u32> = try_get_attached_shaders;
    /// glBindAttribLocation (takes effect at the next link).
    "glBindAttribLocation"
    fn bind_attrib_location(program: u32, index: u32, name: &str) = try_bind_attrib_location;
    /// glBindFragDataLocation: the index 0 form of glBindFragDataLocationIndexed.
    "glBindFragDataLocation"
    fn bind_frag_data_location(program: u32, color: u32, name: &str)
        = try_bind_frag_data_location;
    /// glBindFragDataLocationIndexed (takes effect at the next link; index 0 only: softgl
    /// has no dual-source blending).
    "glBindFragDataLocationIndexed"
    fn bind_frag_data_location_indexed(program: u32, color: u32, index: u32, name: &str)
        = try_bind_frag_data_location_indexed;
    /// glUseProgram.
    "glUseProgram" fn use_program(program: u32) = try_use_program;
    /// glValidateProgram.
    "glValidateProgram" fn validate_program(program: u32) = try_validate_program;
    /// glGetProgramiv.
    "glGetProgramiv" fn get_programiv(program: u32, pname: u32) -> i32 = try_get_programiv;
    /// glGetProgramInfoLog.
    "glGetProgramInfoLog"
    fn get_program_info_log(program: u32) -> String = try_get_program_info_log;
    /// glGetActiveUniform: (size, type, name).
    "glGetActiveUniform"
    fn get_active_uniform(program: u32, index: u32) -> (i32, u32, String) = try_get_active_uniform;
    /// glGetUniformIndices: GL_INVALID_INDEX for names that are not active uniforms.
    "glGetUniformIndices"
    fn get_uniform_indices(program: u32, names: &[&str]) -> Vec<u32> = try_get_uniform_indices;
    /// glGetActiveUniformsiv (GL 4.5 core §7.3.1.1): one value per index; nothing is written
    /// when any index is out of range (INVALID_VALUE) or `pname` unknown (INVALID_ENUM).
    "glGetActiveUniformsiv"
    fn get_active_uniformsiv(program: u32, indices: &[u32], pname: u32) -> Vec<i32>
        = try_get_active_uniformsiv;
    /// glGetActiveUniformBlockName.
    "glGetActiveUniformBlockName"
    fn get_active_uniform_block_name(program: u32, index: u32) -> String
        = try_get_active_uniform_block_name;
    /// glGetActiveAttrib: (size, type, name).
    "glGetActiveAttrib"
    fn get_active_attrib(program: u32, index: u32) -> (i32, u32, String) = try_get_active_attrib;
    /// glUniformBlockBinding.
    "glUniformBlockBinding"
    fn uniform_block_binding(program: u32, index: u32, binding: u32) = try_uniform_block_binding;
    /// glGetActiveAtomicCounterBufferiv (GL 4.5 core §7.7).
    "glGetActiveAtomicCounterBufferiv"
    fn get_active_atomic_counter_bufferiv(program: u32, index: u32, pname: u32) -> Vec<i32>
        = try_get_active_atomic_counter_bufferiv;
    /// glGetActiveUniformBlockiv: GL_UNIFORM_BLOCK_BINDING, GL_UNIFORM_BLOCK_DATA_SIZE.
    "glGetActiveUniformBlockiv"
    fn get_active_uniform_blockiv(program: u32, index: u32, pname: u32) -> Vec<i32>
        = try_get_active_uniform_blockiv;
    /// glUniformHandleui64ARB.
    "glUniformHandleui64ARB"
    fn uniform_handle_ui64_arb(location: i32, value: u64) = try_uniform_handle_ui64_arb;
    /// glUniformHandleui64vARB.
    "glUniformHandleui64vARB"
    fn uniform_handle_ui64v_arb(location: i32, values: &[u64]) = try_uniform_handle_ui64v_arb;
    /// glProgramUniformHandleui64ARB.
    "glProgramUniformHandleui64ARB"
    fn program_uniform_handle_ui64_arb(program: u32, location: i32, value: u64)
        = try_program_uniform_handle_ui64_arb;
    /// glProgramUniformHandleui64vARB.
    "glProgramUniformHandleui64vARB"
    fn program_uniform_handle_ui64v_arb(program: u32, location: i32, values: &[u64])
        = try_program_uniform_handle_ui64v_arb;
    /// glGetUniformfv.
    "glGetUniformfv" fn get_uniformfv(program: u32, location: i32) -> Vec<f32> = try_get_uniformfv;
    /// glGetUniformiv (booleans read as 0 / 1).
    "glGetUniformiv" fn get_uniformiv(program: u32, location: i32) -> Vec<i32> = try_get_uniformiv;
    /// glGetUniformuiv.
    "glGetUniformuiv"
    fn get_uniformuiv(program: u32, location: i32) -> Vec<u32> = try_get_uniformuiv;
    /// glLinkProgram (GL 4.5 core §7.3). A failed link of the current program keeps its
    /// previous executable in use until the next glUseProgram (§7.3).
    "glLinkProgram"
    fn link_program(program: u32) = try_link_program, group by body;
    /// glCompileShader.
    "glCompileShader"
    fn compile_shader(shader: u32) = try_compile_shader, group by body;
    /// glCreateShader: GL_VERTEX_SHADER or GL_FRAGMENT_SHADER (the stages implemented).
    "glCreateShader"
    fn create_shader(ty: u32) -> u32 = try_create_shader;
    /// glDeleteShader: flagged while attached, deleted when detached.
    "glDeleteShader"
    fn delete_shader(shader: u32) = try_delete_shader;
    /// glCreateProgram.
    "glCreateProgram"
    fn create_program() -> u32 = try_create_program;
    /// glDeleteProgram: flagged while current.
    "glDeleteProgram"
    fn delete_program(program: u32) = try_delete_program;
    /// glGetUniformLocation: -1 for names that are not active uniforms.
    "glGetUniformLocation"
    fn get_uniform_location(program: u32, name: &str) -> i32 = try_get_uniform_location else -1;
    /// glGetAttribLocation: -1 for names that are not active attributes.
    "glGetAttribLocation"
    fn get_attrib_location(program: u32, name: &str) -> i32 = try_get_attrib_location else -1;
    /// glGetFragDataLocation: -1 for names that are not active user-defined outputs.
    "glGetFragDataLocation"
    fn get_frag_data_location(program: u32, name: &str) -> i32 = try_get_frag_data_location else -1;
    /// glGetFragDataIndex: 1 for the second source colour of dual-source blending, 0 for
    /// other active outputs, else -1.
    "glGetFragDataIndex"
    fn get_frag_data_index(program: u32, name: &str) -> i32 = try_get_frag_data_index else -1;
    /// glGetUniformBlockIndex: GL_INVALID_INDEX when absent.
    "glGetUniformBlockIndex"
    fn get_uniform_block_index(program: u32, name: &str) -> u32 = try_get_uniform_block_index else gl::INVALID_INDEX;
    /// glGetActiveUniformName (GL 4.5 core §7.3.1.1).
    "glGetActiveUniformName"
    fn get_active_uniform_name(program: u32, index: u32) -> String = try_get_active_uniform_name;
}

impl Context {
    fn shader(&self, s: u32) -> GlResult<&Shader> {
        match self.objs.programs.get(ProgramObjectName(s)) {
            Some(ProgramObject::Shader(sh)) => Ok(sh),
            Some(_) => Err(GlError::InvalidOperation("name is a program, not a shader")),
            None => Err(GlError::InvalidValue("not a shader name")),
        }
    }

    fn shader_mut(&mut self, s: u32) -> GlResult<&mut Shader> {
        match self.objs.programs.get_mut(ProgramObjectName(s)) {
            Some(ProgramObject::Shader(sh)) => Ok(sh),
            Some(_) => Err(GlError::InvalidOperation("name is a program, not a shader")),
            None => Err(GlError::InvalidValue("not a shader name")),
        }
    }

    pub(crate) fn program_obj(&self, p: u32) -> GlResult<&Program> {
        match self.objs.programs.get(ProgramObjectName(p)) {
            Some(ProgramObject::Program(pr)) => Ok(pr),
            Some(_) => Err(GlError::InvalidOperation("name is a shader, not a program")),
            None => Err(GlError::InvalidValue("not a program name")),
        }
    }

    pub(crate) fn program_mut(&mut self, p: u32) -> GlResult<&mut Program> {
        match self.objs.programs.get_mut(ProgramObjectName(p)) {
            Some(ProgramObject::Program(pr)) => Ok(pr),
            Some(_) => Err(GlError::InvalidOperation("name is a shader, not a program")),
            None => Err(GlError::InvalidValue("not a program name")),
        }
    }

    fn linked_program(&self, p: u32) -> GlResult<&Executable> {
        let pr = self.program_obj(p)?;
        if !pr.link_status {
            return Err(GlError::InvalidOperation("program is not linked"));
        }
        pr.exe
            .as_ref()
            .ok_or(GlError::InvalidOperation("program is not linked"))
    }

    /// The executable whose active resources the GetActive* queries enumerate. A program
    /// that is not linked has none, so every index is out of range: GL_INVALID_VALUE
    /// (GL 4.5 core §7.3.1, as Mesa), not the GL_INVALID_OPERATION of `linked_program`.
    fn active_resources(&self, p: u32, what: &'static str) -> GlResult<&Executable> {
        let pr = self.program_obj(p)?;
        pr.exe
            .as_ref()
            .filter(|_| pr.link_status)
            .ok_or(GlError::InvalidValue(what))
    }

    /// The current program's executable, for draws; with no current program, the bound
    /// program pipeline's draw program once `prepare_pipeline_draw` made it (`pipeline.rs`).
    pub(crate) fn current_executable(&self) -> Option<&Executable> {
        let Some(program) = self.program else {
            return self.pipelines.composed_executable();
        };
        match self.objs.programs.get(program)? {
            ProgramObject::Program(p) => p.exe.as_ref(),
            _ => None,
        }
    }

    /// The program glUniform* sets: the current one, else the bound pipeline's active
    /// program (GL 4.5 core §7.6.1).
    pub(crate) fn uniform_program(&self) -> Option<u32> {
        self.program
            .or_else(|| self.pipelines.active_program())
            .map(|p| p.0)
    }

    pub(crate) fn try_create_shader(&mut self, ty: u32) -> GlResult<u32> {
        let stage = match ty {
            gl::VERTEX_SHADER => Stage::Vertex,
            gl::FRAGMENT_SHADER => Stage::Fragment,
            gl::COMPUTE_SHADER => Stage::Compute,
            gl::GEOMETRY_SHADER => Stage::Geometry,
            gl::TESS_CONTROL_SHADER => Stage::TessControl,
            gl::TESS_EVALUATION_SHADER => Stage::TessEval,
            _ => return Err(GlError::BadEnum("shader type", ty)),
        };
        let sh = Shader {
            ty,
            stage,
            source: String::new(),
            module: None,
            compiled: false,
            compiled_source: Arc::from(""),
            info_log: String::new(),
            delete_pending: false,
        };
        Ok(self
            .objs
            .programs
            .create(ProgramObject::Shader(sh))
            .map_or(0, |n| n.0))
    }

    pub(crate) fn try_shader_source(&mut self, shader: u32, strings: &[&str]) -> GlResult<()> {
        self.shader_mut(shader).map(|s| s.source = strings.concat())
    }

    pub(crate) fn try_get_shader_source(&mut self, shader: u32) -> GlResult<String> {
        self.shader(shader).map(|s| s.source.clone())
    }

    pub(crate) fn try_compile_shader(&mut self, shader: u32) -> GlResult<()> {
        // The front end runs outside the share-group lock (see link_program).
        let r = self.with_group(|this| this.shader(shader).map(|s| (s.stage, s.source.clone())));
        let (stage, source) = r?;
        // On a compiler thread: the front end's recursion never touches the caller's stack.
        let front_end = self.front_end.clone();
        let (out, source) = crate::jit::run_on_compiler_thread(move || {
            let out = front_end(stage, &source);
            (out, source)
        });
        self.with_group(|this| {
            // Deleted by another context of the group meanwhile: nowhere to put the result.
            if let Ok(s) = this.shader_mut(shader) {
                s.module = out.module.map(Arc::new);
                s.compiled = out.compiled;
                if out.compiled {
                    s.compiled_source = Arc::from(source.as_str());
                }
                s.info_log = out.info_log;
            }
        });
        Ok(())
    }

    pub(crate) fn try_delete_shader(&mut self, shader: u32) -> GlResult<()> {
        if shader == 0 {
            return Ok(());
        }
        self.shader(shader)?;
        let name = ProgramObjectName(shader);
        let attached = self
            .objs
            .programs
            .iter_mut()
            .any(|(_, o)| matches!(o, ProgramObject::Program(p) if p.shaders.contains(&name)));
        if attached {
            self.shader_mut(shader)?.delete_pending = true;
        } else {
            self.objs.programs.remove(name);
        }
        Ok(())
    }

    /// glIsShader.
    pub fn is_shader(&self, shader: u32) -> bool {
        self.read_group(|o| {
            matches!(
                o.programs.get(ProgramObjectName(shader)),
                Some(ProgramObject::Shader(_))
            )
        })
    }

    pub(crate) fn try_get_shaderiv(&mut self, shader: u32, pname: u32) -> GlResult<i32> {
        let s = self.shader(shader)?;
        Ok(match pname {
            gl::SHADER_TYPE => s.ty as i32,
            gl::DELETE_STATUS => s.delete_pending as i32,
            gl::COMPILE_STATUS => s.compiled as i32,
            gl::INFO_LOG_LENGTH => info_len(&s.info_log),
            gl::SHADER_SOURCE_LENGTH => info_len(&s.source),
            _ => return Err(GlError::BadEnum("shader parameter", pname)),
        })
    }

    pub(crate) fn try_get_shader_info_log(&mut self, shader: u32) -> GlResult<String> {
        self.shader(shader).map(|s| s.info_log.clone())
    }

    pub(crate) fn try_create_program(&mut self) -> GlResult<u32> {
        Ok(self
            .objs
            .programs
            .create(ProgramObject::Program(Box::default()))
            .map_or(0, |n| n.0))
    }

    /// glIsProgram.
    pub fn is_program(&self, program: u32) -> bool {
        self.read_group(|o| {
            matches!(
                o.programs.get(ProgramObjectName(program)),
                Some(ProgramObject::Program(_))
            )
        })
    }

    pub(crate) fn try_attach_shader(&mut self, program: u32, shader: u32) -> GlResult<()> {
        self.program_obj(program)?;
        self.shader(shader)?;
        let p = self.program_mut(program)?;
        let s = ProgramObjectName(shader);
        if p.shaders.contains(&s) {
            return Err(GlError::InvalidOperation("shader is already attached"));
        }
        p.shaders.push(s);
        Ok(())
    }

    pub(crate) fn try_detach_shader(&mut self, program: u32, shader: u32) -> GlResult<()> {
        self.program_obj(program)?;
        self.shader(shader)?;
        let s = ProgramObjectName(shader);
        let p = self.program_mut(program)?;
        let Some(i) = p.shaders.iter().position(|&x| x == s) else {
            return Err(GlError::InvalidOperation("shader is not attached"));
        };
        p.shaders.remove(i);
        self.collect_shader(s);
        Ok(())
    }

    /// Deletes a delete-pending shader once no program holds it.
    fn collect_shader(&mut self, s: ProgramObjectName) {
        let pending = matches!(self.objs.programs.get(s), Some(ProgramObject::Shader(sh)) if sh.delete_pending);
        let attached = self
            .objs
            .programs
            .iter_mut()
            .any(|(_, o)| matches!(o, ProgramObject::Program(p) if p.shaders.contains(&s)));
        if pending && !attached {
            self.objs.programs.remove(s);
        }
    }

    pub(crate) fn try_get_attached_shaders(&mut self, program: u32) -> GlResult<Vec<u32>> {
        self.program_obj(program)
            .map(|p| p.shaders.iter().map(|s| s.0).collect())
    }

    pub(crate) fn try_delete_program(&mut self, program: u32) -> GlResult<()> {
        if program == 0 {
            return Ok(());
        }
        if self.program_obj(program)?.current_in > 0 {
            self.program_mut(program)?.delete_pending = true;
        } else {
            self.destroy_program(ProgramObjectName(program));
        }
        Ok(())
    }

    /// This context stops using program `o`: deleted if it was flagged and no context of
    /// the group uses it any more.
    pub(crate) fn release_program(&mut self, o: ProgramObjectName) {
        let Some(ProgramObject::Program(p)) = self.objs.programs.get_mut(o) else {
            return;
        };
        p.current_in = p.current_in.saturating_sub(1);
        if p.delete_pending && p.current_in == 0 {
            self.destroy_program(o);
        } else if !p.link_status && p.current_in == 0 {
            // A failed relink kept the old executable only while current (§7.3).
            p.exe = None;
        }
    }

    fn destroy_program(&mut self, p: ProgramObjectName) {
        if let Some(ProgramObject::Program(prog)) = self.objs.programs.remove(p) {
            for s in prog.shaders {
                self.collect_shader(s);
            }
        }
    }

    pub(crate) fn try_bind_attrib_location(
        &mut self,
        program: u32,
        index: u32,
        name: &str,
    ) -> GlResult<()> {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return Err(GlError::InvalidValue("index past GL_MAX_VERTEX_ATTRIBS"));
        }
        if name.starts_with("gl_") {
            return Err(GlError::InvalidOperation(
                "names starting with gl_ are reserved",
            ));
        }
        let p = self.program_mut(program)?;
        p.attrib_bindings.retain(|(n, _)| n != name);
        p.attrib_bindings.push((name.to_string(), index));
        Ok(())
    }

    /// GL 4.5 core §15.2.3: index 1 (dual-source blending) takes colour number 0 only
    /// (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1). A name keeps its last binding.
    pub(crate) fn try_bind_frag_data_location_indexed(
        &mut self,
        program: u32,
        color: u32,
        index: u32,
        name: &str,
    ) -> GlResult<()> {
        if index > 1 {
            return Err(GlError::InvalidValue("index is greater than 1"));
        }
        if index == 1 && color >= crate::ir::link::MAX_DUAL_SOURCE_DRAW_BUFFERS {
            return Err(GlError::InvalidValue(
                "index 1 needs colorNumber below GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1)",
            ));
        }
        if color >= limits::MAX_DRAW_BUFFERS {
            return Err(GlError::InvalidValue(
                "colorNumber past GL_MAX_DRAW_BUFFERS",
            ));
        }
        if name.starts_with("gl_") {
            return Err(GlError::InvalidOperation(
                "names starting with gl_ are reserved",
            ));
        }
        let p = self.program_mut(program)?;
        p.frag_data_bindings.retain(|(n, _)| n != name);
        p.frag_data_index1.retain(|n| n != name);
        if index == 1 {
            p.frag_data_index1.push(name.to_string());
        } else {
            p.frag_data_bindings.push((name.to_string(), color));
        }
        Ok(())
    }

    pub(crate) fn try_bind_frag_data_location(
        &mut self,
        program: u32,
        color: u32,
        name: &str,
    ) -> GlResult<()> {
        self.try_bind_frag_data_location_indexed(program, color, 0, name)
    }

    pub(crate) fn try_link_program(&mut self, program: u32) -> GlResult<()> {
        // Linking runs the JIT: it happens outside the share-group lock so that a link in one
        // context does not stall the other contexts of the group (share.rs). The inputs are
        // gathered, and the result stored, under the lock.
        let gathered = self.with_group(|this| {
            let p = this.program_obj(program)?;
            let mut vs = Vec::new();
            let mut fs = Vec::new();
            let mut cs = Vec::new();
            let mut gs = Vec::new();
            let mut tcs = Vec::new();
            let mut tes = Vec::new();
            let mut log = String::new();
            for &s in &p.shaders {
                if let Some(ProgramObject::Shader(sh)) = this.objs.programs.get(s) {
                    if !sh.compiled {
                        log.push_str("error: an attached shader is not compiled\n");
                        continue;
                    }
                    let unit = (sh.compiled_source.clone(), sh.module.clone());
                    match sh.stage {
                        Stage::Vertex => vs.push(unit),
                        Stage::Compute => cs.push(unit),
                        Stage::Fragment => fs.push(unit),
                        Stage::Geometry => gs.push(unit),
                        Stage::TessControl => tcs.push(unit),
                        Stage::TessEval => tes.push(unit),
                    }
                }
            }
            let opts = LinkOptions {
                attrib_bindings: p.attrib_bindings.clone(),
                frag_data_bindings: p.frag_data_bindings.clone(),
                frag_data_index1: p.frag_data_index1.clone(),
                open_interfaces: false,
            };
            let separable = p.params.separable;
            let xfb = (p.xfb_varyings.clone(), p.xfb_separate);
            // GL 4.5 core §7.3: the program transform feedback captures with stays.
            if this.xfb.uses_program(ProgramObjectName(program)) {
                return Err(GlError::InvalidOperation(
                    "the program is in use by active transform feedback",
                ));
            }
            Ok(([vs, gs, fs], [tcs, tes], cs, opts, xfb, separable, log))
        });
        let (stages, tess, cs, opts, xfb, separable, log) = gathered?;
        // The front end (several units), the link and the JIT run on a compiler thread.
        let back_end = self.back_end.clone();
        let result = crate::jit::run_on_compiler_thread(move || {
            link_units(
                stages,
                tess,
                cs,
                &opts,
                (&xfb.0, xfb.1),
                separable,
                &back_end,
                log,
            )
        });
        self.with_group(|this| {
            // Deleted by another context of the group meanwhile: the result has no home.
            let Ok(p) = this.program_mut(program) else {
                return Ok(());
            };
            match result {
                Ok(exe) => {
                    p.link_status = true;
                    p.info_log.clear();
                    p.exe = Some(exe);
                }
                Err(log) => {
                    p.link_status = false;
                    p.info_log = log;
                    // GL 4.5 core §7.3: a failed relink leaves the executable of a program
                    // in use (in any context) in place until it is no longer used.
                    if p.current_in == 0 {
                        p.exe = None;
                    }
                }
            }
            Ok(())
        })
    }

    pub(crate) fn link_modules(
        vs: &Module,
        fs: &Module,
        opts: &LinkOptions,
        back_end: &BackEnd,
    ) -> Result<Executable, String> {
        let linked = link::link(vs, fs, opts).map_err(|errs| {
            errs.iter()
                .map(|e| format!("error: {e}\n"))
                .collect::<String>()
        })?;
        let vs_code = back_end(vs).map_err(|e| format!("error: vertex shader: {e}\n"))?;
        let fs_code = back_end(fs).map_err(|e| format!("error: fragment shader: {e}\n"))?;
        Ok(Self::executable_of(vs, fs, linked, vs_code, fs_code))
    }

    /// The executable of a vertex + fragment link from the stages' code (`link_modules`;
    /// program pipelines pass the code their programs compiled, `pipeline.rs`).
    pub(crate) fn executable_of(
        vs: &Module,
        fs: &Module,
        linked: Linked,
        vs_code: Arc<dyn crate::jit::ShaderCode>,
        fs_code: Arc<dyn crate::jit::ShaderCode>,
    ) -> Executable {
        let code = ProgramCode {
            vs_output_words: vs_code.output_words().max(linked.vs_output_words),
            fs_input_words: fs_code.input_words().max(linked.fs_input_words),
            fs_output_words: fs_code.output_words().max(linked.fs_output_words),
            vs: vs_code,
            fs: fs_code,
            position_slot: linked.position_slot,
            point_size_slot: vs
                .outputs
                .iter()
                .find(|o| o.builtin == Some(crate::ir::BuiltinOutput::PointSize))
                .map(|o| o.slot),
            clip_distances: crate::ir::link::clip_distance_output(vs),
            cull_distances: crate::ir::link::cull_distance_output(vs),
            varyings: linked.varyings.clone(),
            color_slots: linked.color_slots.clone(),
            src1_slot: linked.src1_slot,
            frag_depth_slot: linked.frag_depth_slot,
            uses_discard: linked.uses_discard,
            early_fragment_tests: linked.early_fragment_tests,
            frag_coord_origin_upper_left: fs.frag_coord_origin_upper_left,
            frag_coord_pixel_center_integer: fs.frag_coord_pixel_center_integer,
            gs: None,
            vs_select_slots: [
                crate::ir::BuiltinOutput::Layer,
                crate::ir::BuiltinOutput::ViewportIndex,
            ]
            .map(|b| {
                vs.outputs
                    .iter()
                    .find(|o| o.builtin == Some(b))
                    .map(|o| o.slot)
            }),
            tess: None,
        };
        let mut code = code;
        let fs_writes = fs.writes_storage();
        // A fragment shader with side effects runs before the depth and stencil tests
        // unless it asks for early tests (GL 4.5 core §15.2.4): the rasterizer tests early
        // only for shaders without discard and depth writes, so it is told "discard".
        code.uses_discard |= fs_writes;
        let mut exe = Executable::new(linked, Arc::new(code));
        exe.writes_storage = fs_writes || vs.writes_storage();
        exe
    }

    pub(crate) fn try_use_program(&mut self, program: u32) -> GlResult<()> {
        // GL 4.5 core §13.3.2: not while transform feedback captures.
        if self.xfb.capturing() {
            return Err(GlError::InvalidOperation(
                "transform feedback is active and not paused",
            ));
        }
        let new = if program == 0 {
            None
        } else {
            let p = self.program_obj(program)?;
            if !p.link_status {
                return Err(GlError::InvalidOperation("program is not linked"));
            }
            Some(ProgramObjectName(program))
        };
        // GL 4.5 core §7.10: every glUseProgram resets the subroutine uniforms, even of
        // the program already in use.
        self.subroutine_selection.reset();
        let old = std::mem::replace(&mut self.program, new);
        if old == new {
            return Ok(());
        }
        if let Some(ProgramObject::Program(p)) = new.and_then(|n| self.objs.programs.get_mut(n)) {
            p.current_in += 1;
        }
        if let Some(o) = old {
            self.release_program(o);
        }
        Ok(())
    }

    pub(crate) fn try_validate_program(&mut self, program: u32) -> GlResult<()> {
        let p = self.program_mut(program)?;
        let conflict = p.exe.as_ref().and_then(|e| e.sampler_unit_conflict());
        p.validate_status = p.link_status && conflict.is_none();
        if let Some(unit) = conflict {
            p.info_log = format!(
                "error: samplers of different types use texture unit {unit} (they cannot run)\n"
            );
        }
        Ok(())
    }

    pub(crate) fn try_get_programiv(&mut self, program: u32, pname: u32) -> GlResult<i32> {
        let p = self.program_obj(program)?;
        if let Some(r) = crate::api::tess::program_parameter(p, pname) {
            return r;
        }
        if let Some(r) = crate::api::geometry::program_parameter(p, pname) {
            return r;
        }
        let l = p.exe.as_ref().filter(|_| p.link_status).map(|e| &e.linked);
        let xfb = p.exe.as_ref().filter(|_| p.link_status).map(|e| &*e.xfb);
        let max_len = |names: &mut dyn Iterator<Item = &str>| {
            names.map(|n| n.len() as i32 + 1).max().unwrap_or(0)
        };
        Ok(match pname {
            gl::DELETE_STATUS => p.delete_pending as i32,
            gl::LINK_STATUS => p.link_status as i32,
            gl::PROGRAM_SEPARABLE
            | gl::PROGRAM_BINARY_RETRIEVABLE_HINT
            | gl::PROGRAM_BINARY_LENGTH => p.params.value(pname),
            gl::VALIDATE_STATUS => p.validate_status as i32,
            gl::INFO_LOG_LENGTH => info_len(&p.info_log),
            gl::ATTACHED_SHADERS => p.shaders.len() as i32,
            gl::ACTIVE_UNIFORMS => l.map_or(0, |l| l.active_uniform_count() as i32),
            gl::ACTIVE_UNIFORM_MAX_LENGTH => {
                l.map_or(0, |l| max_len(&mut l.active_uniforms().map(|u| u.name)))
            }
            gl::ACTIVE_ATTRIBUTES => l.map_or(0, |l| l.attributes.len() as i32),
            gl::ACTIVE_ATTRIBUTE_MAX_LENGTH => l.map_or(0, |l| {
                max_len(&mut l.attributes.iter().map(|a| a.name.as_str()))
            }),
            gl::ACTIVE_UNIFORM_BLOCKS => l.map_or(0, |l| l.blocks.len() as i32),
            gl::ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH => l.map_or(0, |l| {
                max_len(&mut l.blocks.iter().map(|b| b.name.as_str()))
            }),
            // The varyings of the last link (GL 4.5 core §7.13 table 23.39).
            gl::TRANSFORM_FEEDBACK_VARYINGS => xfb.map_or(0, |x| x.varyings.len() as i32),
            gl::TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH => xfb.map_or(0, |x| {
                max_len(&mut x.varyings.iter().map(|v| v.name.as_str()))
            }),
            gl::ACTIVE_ATOMIC_COUNTER_BUFFERS => {
                l.map_or(0, |l| l.atomic_counter_buffers.len() as i32)
            }
            gl::TRANSFORM_FEEDBACK_BUFFER_MODE => {
                let separate = xfb.map_or(p.xfb_separate, |x| x.separate);
                (if separate {
                    gl::SEPARATE_ATTRIBS
                } else {
                    gl::INTERLEAVED_ATTRIBS
                }) as i32
            }
            // Its first value; glGetProgramiv's C entry point writes all three.
            gl::COMPUTE_WORK_GROUP_SIZE => crate::api::compute::work_group_size(p)?[0],
            _ => return Err(GlError::BadEnum("program parameter", pname)),
        })
    }

    pub(crate) fn try_get_program_info_log(&mut self, program: u32) -> GlResult<String> {
        self.program_obj(program).map(|p| p.info_log.clone())
    }

    pub(crate) fn try_get_uniform_location(&mut self, program: u32, name: &str) -> GlResult<i32> {
        self.linked_program(program)
            .map(|e| e.linked.uniform_location(name).map_or(-1, |l| l as i32))
    }

    pub(crate) fn try_get_attrib_location(&mut self, program: u32, name: &str) -> GlResult<i32> {
        self.linked_program(program)
            .map(|e| e.linked.attrib_location(name).map_or(-1, |l| l as i32))
    }

    pub(crate) fn try_get_frag_data_location(&mut self, program: u32, name: &str) -> GlResult<i32> {
        self.linked_program(program)
            .map(|e| e.linked.frag_data_location(name).map_or(-1, |l| l as i32))
    }

    pub(crate) fn try_get_frag_data_index(&mut self, program: u32, name: &str) -> GlResult<i32> {
        self.linked_program(program)
            .map(|e| e.linked.frag_data_index(name).map_or(-1, |i| i as i32))
    }

    pub(crate) fn try_get_active_uniform(
        &mut self,
        program: u32,
        index: u32,
    ) -> GlResult<(i32, u32, String)> {
        let e = self.active_resources(program, "uniform index")?;
        let u = e
            .linked
            .active_uniform(index as usize)
            .ok_or(GlError::InvalidValue("uniform index"))?;
        Ok((u.size as i32, u.ty.gl_enum(), u.name.to_string()))
    }

    pub(crate) fn try_get_active_uniform_name(
        &mut self,
        program: u32,
        index: u32,
    ) -> GlResult<String> {
        self.try_get_active_uniform(program, index).map(|u| u.2)
    }

    pub(crate) fn try_get_uniform_indices(
        &mut self,
        program: u32,
        names: &[&str],
    ) -> GlResult<Vec<u32>> {
        self.linked_program(program).map(|e| {
            names
                .iter()
                .map(|n| e.linked.uniform_index(n).unwrap_or(gl::INVALID_INDEX))
                .collect()
        })
    }

    pub(crate) fn try_get_active_uniformsiv(
        &mut self,
        program: u32,
        indices: &[u32],
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        let e = self.active_resources(program, "uniform index")?;
        let all: Vec<_> = e.linked.active_uniforms().collect();
        let mut out = Vec::with_capacity(indices.len());
        for &i in indices {
            let u = all
                .get(i as usize)
                .ok_or(GlError::InvalidValue("uniform index"))?;
            out.push(match pname {
                gl::UNIFORM_TYPE => u.ty.gl_enum() as i32,
                gl::UNIFORM_SIZE => u.size as i32,
                gl::UNIFORM_NAME_LENGTH => u.name.len() as i32 + 1,
                gl::UNIFORM_BLOCK_INDEX => u.block_index,
                gl::UNIFORM_OFFSET => u.offset,
                gl::UNIFORM_ARRAY_STRIDE => u.array_stride,
                gl::UNIFORM_MATRIX_STRIDE => u.matrix_stride,
                gl::UNIFORM_IS_ROW_MAJOR => u.row_major as i32,
                gl::UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX => u.atomic_buffer,
                _ => return Err(GlError::BadEnum("uniform parameter", pname)),
            });
        }
        Ok(out)
    }

    pub(crate) fn try_get_active_uniform_block_name(
        &mut self,
        program: u32,
        index: u32,
    ) -> GlResult<String> {
        let e = self.active_resources(program, "block index")?;
        e.linked
            .blocks
            .get(index as usize)
            .map(|b| b.name.clone())
            .ok_or(GlError::InvalidValue("block index"))
    }

    pub(crate) fn try_get_active_attrib(
        &mut self,
        program: u32,
        index: u32,
    ) -> GlResult<(i32, u32, String)> {
        let e = self.active_resources(program, "attribute index")?;
        let a = e
            .linked
            .attributes
            .get(index as usize)
            .ok_or(GlError::InvalidValue("attribute index"))?;
        Ok((
            a.array_len.unwrap_or(1) as i32,
            a.ty.gl_enum(),
            a.name.clone(),
        ))
    }

    pub(crate) fn try_get_uniform_block_index(
        &mut self,
        program: u32,
        name: &str,
    ) -> GlResult<u32> {
        self.linked_program(program)
            .map(|e| e.linked.block_index(name).unwrap_or(gl::INVALID_INDEX))
    }

    pub(crate) fn try_uniform_block_binding(
        &mut self,
        program: u32,
        index: u32,
        binding: u32,
    ) -> GlResult<()> {
        if binding >= limits::MAX_UNIFORM_BUFFER_BINDINGS {
            return Err(GlError::InvalidValue(
                "binding past GL_MAX_UNIFORM_BUFFER_BINDINGS",
            ));
        }
        self.linked_program(program)?;
        let p = self.program_mut(program)?;
        let e = p
            .exe
            .as_mut()
            .ok_or(GlError::InvalidOperation("program is not linked"))?;
        let slot = e
            .block_bindings
            .get_mut(index as usize)
            .ok_or(GlError::InvalidValue("block index"))?;
        *slot = binding;
        Ok(())
    }

    /// glShaderStorageBlockBinding's work (`binding` already checked).
    pub(crate) fn set_storage_block_binding(
        &mut self,
        program: u32,
        index: u32,
        binding: u32,
    ) -> GlResult<()> {
        self.linked_program(program)?;
        let p = self.program_mut(program)?;
        let e = p
            .exe
            .as_mut()
            .ok_or(GlError::InvalidOperation("program is not linked"))?;
        let slot = e
            .storage_bindings
            .get_mut(index as usize)
            .ok_or(GlError::InvalidValue("storage block index"))?;
        *slot = binding;
        Ok(())
    }

    pub(crate) fn try_get_active_uniform_blockiv(
        &mut self,
        program: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        let e = self.active_resources(program, "block index")?;
        let l = &e.linked;
        let b = l
            .blocks
            .get(index as usize)
            .ok_or(GlError::InvalidValue("block index"))?;
        let members = || {
            l.active_uniforms()
                .enumerate()
                .filter(|(_, u)| u.block_index == index as i32)
                .map(|(i, _)| i as i32)
        };
        Ok(match pname {
            gl::UNIFORM_BLOCK_BINDING => vec![e.block_bindings[index as usize] as i32],
            gl::UNIFORM_BLOCK_DATA_SIZE => vec![b.size as i32],
            gl::UNIFORM_BLOCK_NAME_LENGTH => vec![b.name.len() as i32 + 1],
            gl::UNIFORM_BLOCK_ACTIVE_UNIFORMS => vec![members().count() as i32],
            gl::UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES => members().collect(),
            gl::UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER
            | gl::UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER
            | gl::UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER
            | gl::UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER
            | gl::UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER
            | gl::UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER => {
                let stages =
                    crate::api::stage_refs::stages_of(e, b.stage_index.map(|i| i.is_some()), |r| {
                        r.block(&b.name)
                    });
                // The order of `stage_refs::STAGE_ORDER`.
                let k = [
                    gl::UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER,
                    gl::UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER,
                    gl::UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER,
                    gl::UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER,
                    gl::UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER,
                    gl::UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER,
                ]
                .iter()
                .position(|&p| p == pname)
                .unwrap_or(0);
                vec![stages.has(k) as i32]
            }
            _ => return Err(GlError::BadEnum("block parameter", pname)),
        })
    }

    pub(crate) fn try_get_active_atomic_counter_bufferiv(
        &mut self,
        program: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        let e = self.active_resources(program, "atomic counter buffer index")?;
        let l = &e.linked;
        let b = l
            .atomic_counter_buffers
            .get(index as usize)
            .ok_or(GlError::InvalidValue(
                "atomic counter buffer index past GL_ACTIVE_ATOMIC_COUNTER_BUFFERS",
            ))?;
        let counters = || {
            l.active_uniforms()
                .enumerate()
                .filter(|(_, u)| u.atomic_buffer == index as i32)
                .map(|(i, _)| i as i32)
        };
        let stages =
            crate::api::stage_refs::stages_of(e, b.stage_index.map(|i| i.is_some()), |r| {
                r.storage_block(&b.name)
            });
        // The order of `stage_refs::STAGE_ORDER`.
        let referenced = [
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER,
        ];
        Ok(match pname {
            gl::ATOMIC_COUNTER_BUFFER_BINDING => vec![b.binding as i32],
            gl::ATOMIC_COUNTER_BUFFER_DATA_SIZE => vec![b.size as i32],
            gl::ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS => vec![counters().count() as i32],
            gl::ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES => counters().collect(),
            p if referenced.contains(&p) => {
                let k = referenced.iter().position(|&q| q == p).unwrap_or(0);
                vec![stages.has(k) as i32]
            }
            _ => return Err(GlError::BadEnum("atomic counter buffer parameter", pname)),
        })
    }

    /// The program a glUniform* targets: the current one, else the bound pipeline's
    /// active program (INVALID_OPERATION when neither).
    fn uniform_target(&self) -> GlResult<u32> {
        self.uniform_program().ok_or(GlError::InvalidOperation(
            "no current program and no active program of a bound pipeline",
        ))
    }

    /// Resolves `location` of `program` for a write: `Ok(None)` for -1 (silently ignored,
    /// GL 4.5 core §7.6.1).
    fn uniform_slot(
        &mut self,
        program: u32,
        location: i32,
    ) -> GlResult<Option<(&mut Executable, usize, u32)>> {
        self.linked_program(program)?;
        if location == -1 {
            return Ok(None);
        }
        let p = self.program_mut(program)?;
        let e = p
            .exe
            .as_mut()
            .ok_or(GlError::InvalidOperation("program is not linked"))?;
        let (ui, elem) = e
            .linked
            .uniform_at(location)
            .ok_or(GlError::InvalidOperation(
                "not a uniform location of the program",
            ))?;
        Ok(Some((e, ui as usize, elem)))
    }

    /// The heart of glUniform* and glProgramUniform*: `rows`×`cols` components per element
    /// (cols > 1 for the matrix commands), `words` holding `count` elements.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn set_uniform(
        &mut self,
        program: u32,
        location: i32,
        kind: UniformKind,
        rows: u8,
        cols: u8,
        transpose: bool,
        words: &[u32],
    ) -> GlResult<()> {
        // Reached from the dispatched glUniform* commands: the objects are checked out.
        let this = self;
        debug_assert!(this.group_held);
        let comp_words = match kind {
            UniformKind::Uint64 | UniformKind::Double => 2,
            _ => 1,
        };
        let per = rows as usize * cols as usize * comp_words;
        if !words.len().is_multiple_of(per) {
            return Err(GlError::InvalidValue(
                "value count is not a multiple of the components",
            ));
        }
        let count = words.len() / per;
        let Some((e, ui, elem)) = this.uniform_slot(program, location)? else {
            return Ok(());
        };
        let u = e.linked.uniforms[ui].clone();
        if count > 1 && u.array_len.is_none() {
            return Err(GlError::InvalidOperation(
                "count > 1 for a non-array uniform",
            ));
        }
        if u.is_sampler() {
            if kind != UniformKind::Int || per != 1 {
                return Err(GlError::InvalidOperation("samplers take glUniform1i"));
            }
            // Image uniforms name image units (GL 4.5 core §7.6.1).
            let units = if u.ty.base.is_image() {
                crate::api::image_unit::MAX_IMAGE_UNITS
            } else {
                limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS
            };
            if words.iter().any(|&w| w as i32 as u32 >= units) {
                return Err(GlError::InvalidValue("texture or image unit out of range"));
            }
            for (i, &w) in words.iter().enumerate() {
                let e_i = elem + i as u32;
                if e_i < u.elements() {
                    e.samplers.insert(u.location + e_i, SamplerValue::Unit(w));
                }
            }
            return Ok(());
        }
        let shape_ok = u.ty.rows == rows && u.ty.cols == cols;
        let base_ok = match (u.ty.base, kind) {
            (BaseType::Float, UniformKind::Float) | (BaseType::Double, UniformKind::Double) => true,
            (BaseType::Int, UniformKind::Int)
            | (BaseType::Uint, UniformKind::Uint)
            | (BaseType::Uint64, UniformKind::Uint64) => cols == 1,
            // GL 4.5 core §7.6.1: booleans load from the i, ui and f commands only.
            (BaseType::Bool, k) => {
                cols == 1 && !matches!(k, UniformKind::Uint64 | UniformKind::Double)
            }
            _ => false,
        };
        if !shape_ok || !base_ok {
            return Err(GlError::InvalidOperation(
                "uniform type or size does not match the command",
            ));
        }
        for i in 0..count {
            let e_i = elem + i as u32;
            if e_i >= u.elements() {
                break;
            }
            let src = &words[i * per..(i + 1) * per];
            let mut value: Vec<u32> = if transpose && cols > 1 {
                // Row-major in, column-major stored (GL 4.5 core §7.6.1), component by
                // component (a double's two words move together).
                (0..per)
                    .map(|k| {
                        let (k, w) = (k / comp_words, k % comp_words);
                        let (c, r) = (k / rows as usize, k % rows as usize);
                        src[(r * cols as usize + c) * comp_words + w]
                    })
                    .collect()
            } else {
                src.to_vec()
            };
            if u.ty.base == BaseType::Bool {
                // Booleans are 0 / all-ones in shader lanes (ir::module).
                for v in &mut value {
                    let truthy = match kind {
                        UniformKind::Float => f32::from_bits(*v) != 0.0,
                        _ => *v != 0,
                    };
                    *v = if truthy { u32::MAX } else { 0 };
                }
            }
            for stage in 0..2 {
                if let Some(off) = u.offsets[stage] {
                    let at = (off + e_i * u.stride) as usize;
                    if let Some(dst) = e.words[stage].get_mut(at..at + per) {
                        dst.copy_from_slice(&value);
                    }
                }
            }
        }
        Ok(())
    }

    /// glUniformHandleui64vARB's core (ARB_bindless_texture): sampler uniforms declared
    /// `bindless_sampler` (on the uniform or at global scope) only. The extension's §4.4.6:
    /// "In the absence of these qualifiers, sampler and image uniforms are considered
    /// "bound"", and its Errors section makes UniformHandleui64{v}ARB on a bound uniform
    /// INVALID_OPERATION.
    fn set_uniform_handles(&mut self, program: u32, location: i32, values: &[u64]) -> GlResult<()> {
        // Reached from the dispatched glUniform* commands: the objects are checked out.
        let this = self;
        debug_assert!(this.group_held);
        let Some((e, ui, elem)) = this.uniform_slot(program, location)? else {
            return Ok(());
        };
        let u = &e.linked.uniforms[ui];
        if !u.is_sampler() {
            return Err(GlError::InvalidOperation("not a sampler uniform"));
        }
        if u.bound {
            return Err(GlError::InvalidOperation(
                "uniform is declared layout(bound_sampler)",
            ));
        }
        if !u.bindless {
            return Err(GlError::InvalidOperation(
                "uniform is not declared layout(bindless_sampler), so it is bound",
            ));
        }
        if values.len() > 1 && u.array_len.is_none() {
            return Err(GlError::InvalidOperation(
                "count > 1 for a non-array uniform",
            ));
        }
        let (loc, n) = (u.location, u.elements());
        for (i, &h) in values.iter().enumerate() {
            let e_i = elem + i as u32;
            if e_i < n {
                e.samplers
                    .insert(loc + e_i, SamplerValue::Handle(TextureHandle::from_bits(h)));
            }
        }
        Ok(())
    }

    pub(crate) fn try_uniform_handle_ui64_arb(
        &mut self,
        location: i32,
        value: u64,
    ) -> GlResult<()> {
        self.uniform_target()
            .and_then(|p| self.set_uniform_handles(p, location, &[value]))
    }
    pub(crate) fn try_uniform_handle_ui64v_arb(
        &mut self,
        location: i32,
        values: &[u64],
    ) -> GlResult<()> {
        self.uniform_target()
            .and_then(|p| self.set_uniform_handles(p, location, values))
    }
    pub(crate) fn try_program_uniform_handle_ui64_arb(
        &mut self,
        program: u32,
        location: i32,
        value: u64,
    ) -> GlResult<()> {
        self.set_uniform_handles(program, location, &[value])
    }
    pub(crate) fn try_program_uniform_handle_ui64v_arb(
        &mut self,
        program: u32,
        location: i32,
        values: &[u64],
    ) -> GlResult<()> {
        self.set_uniform_handles(program, location, values)
    }

    /// glGetUniformuiv-style raw read: the words of one element (first stage that has it).
    fn uniform_words(&mut self, program: u32, location: i32) -> GlResult<Vec<u32>> {
        let e = self.linked_program(program)?;
        let (ui, elem) = e
            .linked
            .uniform_at(location)
            .ok_or(GlError::InvalidOperation(
                "not a uniform location of the program",
            ))?;
        let u = &e.linked.uniforms[ui as usize];
        if u.is_sampler() {
            return Ok(match e.samplers.get(&(u.location + elem)) {
                Some(SamplerValue::Unit(n)) => vec![*n],
                Some(SamplerValue::Handle(h)) => {
                    let bits = h.to_bits();
                    vec![bits as u32, (bits >> 32) as u32]
                }
                None => vec![0],
            });
        }
        let per = u.ty.words() as usize;
        for stage in 0..2 {
            if let Some(off) = u.offsets[stage] {
                let at = (off + elem * u.stride) as usize;
                if let Some(w) = e.words[stage].get(at..at + per) {
                    return Ok(w.to_vec());
                }
            }
        }
        Ok(vec![0; per])
    }

    pub(crate) fn try_get_uniformfv(&mut self, program: u32, location: i32) -> GlResult<Vec<f32>> {
        if let Some(d) = self.double_uniform(program, location)? {
            return Ok(d.into_iter().map(|x| x as f32).collect());
        }
        self.uniform_words(program, location)
            .map(|w| w.into_iter().map(f32::from_bits).collect())
    }

    pub(crate) fn try_get_uniformiv(&mut self, program: u32, location: i32) -> GlResult<Vec<i32>> {
        if let Some(d) = self.double_uniform(program, location)? {
            return Ok(d.into_iter().map(|x| x as i32).collect());
        }
        self.uniform_words(program, location).map(|w| {
            w.into_iter()
                .map(|x| if x == u32::MAX { 1 } else { x as i32 })
                .collect()
        })
    }

    pub(crate) fn try_get_uniformuiv(&mut self, program: u32, location: i32) -> GlResult<Vec<u32>> {
        if let Some(d) = self.double_uniform(program, location)? {
            return Ok(d.into_iter().map(|x| x as u32).collect());
        }
        self.uniform_words(program, location)
    }

    /// The values of a double uniform (word pairs, low first); `None` for other types.
    pub(crate) fn double_uniform(
        &mut self,
        program: u32,
        location: i32,
    ) -> GlResult<Option<Vec<f64>>> {
        let e = self.linked_program(program)?;
        let is_double = usize::try_from(location)
            .ok()
            .and_then(|l| e.linked.locations.get(l))
            .is_some_and(|&(ui, _)| e.linked.uniforms[ui as usize].ty.base == BaseType::Double);
        if !is_double {
            return Ok(None);
        }
        let w = self.uniform_words(program, location)?;
        Ok(Some(
            w.chunks(2)
                .map(|p| f64::from_bits(u64::from(p[0]) | u64::from(p[1]) << 32))
                .collect(),
        ))
    }
}

/// Scalar forms: `uniform_3f(loc, x, y, z)` and `program_uniform_3f(program, loc, x, y, z)`.
macro_rules! uniform_scalar_fns {
    ($($name:ident $gl:literal, $pname:ident $pgl:literal, $kind:ident, $t:ty, ($($arg:ident),+));* $(;)?) => {
        impl Context {$(
            #[doc = concat!($gl, " (GL 4.5 core §7.6.1).")]
            pub fn $name(&mut self, location: i32, $($arg: $t),+) {
                self.dispatch($gl, Group::CheckedOut, Default::default, |this| {
                    let n = [$(stringify!($arg)),+].len() as u8;
                    let w = uniform_words(&[$($arg),+]);
                    this.uniform_target().and_then(|p| {
                        this.set_uniform(p, location, UniformKind::$kind, n, 1, false, &w)
                    })
                })
            }
            #[doc = concat!($pgl, " (GL 4.5 core §7.6.1).")]
            pub fn $pname(&mut self, program: u32, location: i32, $($arg: $t),+) {
                self.dispatch($pgl, Group::CheckedOut, Default::default, |this| {
                    let n = [$(stringify!($arg)),+].len() as u8;
                    let w = uniform_words(&[$($arg),+]);
                    this.set_uniform(program, location, UniformKind::$kind, n, 1, false, &w)
                })
            }
        )*}
    };
}

/// Vector (`v`) forms: count = len / components.
macro_rules! uniform_vector_fns {
    ($($name:ident $gl:literal, $pname:ident $pgl:literal, $kind:ident, $t:ty, $n:expr);* $(;)?) => {
        impl Context {$(
            #[doc = concat!($gl, " (count = values.len() / components).")]
            pub fn $name(&mut self, location: i32, values: &[$t]) {
                self.dispatch($gl, Group::CheckedOut, Default::default, |this| {
                    let w = uniform_words(values);
                    this.uniform_target().and_then(|p| this.set_uniform(p, location, UniformKind::$kind, $n, 1, false, &w))
                })
            }
            #[doc = concat!($pgl, ".")]
            pub fn $pname(&mut self, program: u32, location: i32, values: &[$t]) {
                self.dispatch($pgl, Group::CheckedOut, Default::default, |this| {
                    let w = uniform_words(values);
                    this.set_uniform(program, location, UniformKind::$kind, $n, 1, false, &w)
                })
            }
        )*}
    };
}

/// Matrix forms: `cols`×`rows` components per element, column-major unless `transpose`.
macro_rules! uniform_matrix_fns {
    ($($name:ident $gl:literal, $pname:ident $pgl:literal, $kind:ident, $t:ty, $cols:expr, $rows:expr);* $(;)?) => {
        impl Context {$(
            #[doc = concat!($gl, " (count = values.len() / (cols × rows)).")]
            pub fn $name(&mut self, location: i32, transpose: bool, values: &[$t]) {
                self.dispatch($gl, Group::CheckedOut, Default::default, |this| {
                    let w = uniform_words(values);
                    this.uniform_target().and_then(|p| this.set_uniform(p, location, UniformKind::$kind, $rows, $cols, transpose, &w))
                })
            }
            #[doc = concat!($pgl, ".")]
            pub fn $pname(&mut self, program: u32, location: i32, transpose: bool, values: &[$t]) {
                self.dispatch($pgl, Group::CheckedOut, Default::default, |this| {
                    let w = uniform_words(values);
                    this.set_uniform(program, location, UniformKind::$kind, $rows, $cols, transpose, &w)
                })
            }
        )*}
    };
}

/// The 32-bit words a uniform component is stored as: one for f32, i32 and u32; two for
/// f64 (GL 4.0 §7.6.1's doubles), low word first.
trait UniformWord: Copy {
    fn push_words(self, out: &mut SmallVec<[u32; 16]>);
}
impl UniformWord for f32 {
    fn push_words(self, out: &mut SmallVec<[u32; 16]>) {
        out.push(self.to_bits())
    }
}
impl UniformWord for i32 {
    fn push_words(self, out: &mut SmallVec<[u32; 16]>) {
        out.push(self as u32)
    }
}
impl UniformWord for u32 {
    fn push_words(self, out: &mut SmallVec<[u32; 16]>) {
        out.push(self)
    }
}
impl UniformWord for f64 {
    fn push_words(self, out: &mut SmallVec<[u32; 16]>) {
        let b = self.to_bits();
        out.extend([b as u32, (b >> 32) as u32])
    }
}

/// The words of `values` as the default block stores them (no allocation up to a mat4 of
/// floats or a dmat2x4).
fn uniform_words<T: UniformWord>(values: &[T]) -> SmallVec<[u32; 16]> {
    let mut w = SmallVec::new();
    for &v in values {
        v.push_words(&mut w);
    }
    w
}

uniform_scalar_fns! {
    uniform_1f "glUniform1f", program_uniform_1f "glProgramUniform1f", Float, f32, (x);
    uniform_2f "glUniform2f", program_uniform_2f "glProgramUniform2f", Float, f32, (x, y);
    uniform_3f "glUniform3f", program_uniform_3f "glProgramUniform3f", Float, f32, (x, y, z);
    uniform_4f "glUniform4f", program_uniform_4f "glProgramUniform4f", Float, f32, (x, y, z, w);
    uniform_1i "glUniform1i", program_uniform_1i "glProgramUniform1i", Int, i32, (x);
    uniform_2i "glUniform2i", program_uniform_2i "glProgramUniform2i", Int, i32, (x, y);
    uniform_3i "glUniform3i", program_uniform_3i "glProgramUniform3i", Int, i32, (x, y, z);
    uniform_4i "glUniform4i", program_uniform_4i "glProgramUniform4i", Int, i32, (x, y, z, w);
    uniform_1ui "glUniform1ui", program_uniform_1ui "glProgramUniform1ui", Uint, u32, (x);
    uniform_2ui "glUniform2ui", program_uniform_2ui "glProgramUniform2ui", Uint, u32, (x, y);
    uniform_3ui "glUniform3ui", program_uniform_3ui "glProgramUniform3ui", Uint, u32, (x, y, z);
    uniform_4ui "glUniform4ui", program_uniform_4ui "glProgramUniform4ui", Uint, u32, (x, y, z, w);
    // GL 4.0 §7.6.1 (glProgramUniform*d: GL 4.1).
    uniform_1d "glUniform1d", program_uniform_1d "glProgramUniform1d", Double, f64, (x);
    uniform_2d "glUniform2d", program_uniform_2d "glProgramUniform2d", Double, f64, (x, y);
    uniform_3d "glUniform3d", program_uniform_3d "glProgramUniform3d", Double, f64, (x, y, z);
    uniform_4d "glUniform4d", program_uniform_4d "glProgramUniform4d", Double, f64, (x, y, z, w);
}

uniform_vector_fns! {
    uniform_1fv "glUniform1fv", program_uniform_1fv "glProgramUniform1fv", Float, f32, 1;
    uniform_2fv "glUniform2fv", program_uniform_2fv "glProgramUniform2fv", Float, f32, 2;
    uniform_3fv "glUniform3fv", program_uniform_3fv "glProgramUniform3fv", Float, f32, 3;
    uniform_4fv "glUniform4fv", program_uniform_4fv "glProgramUniform4fv", Float, f32, 4;
    uniform_1iv "glUniform1iv", program_uniform_1iv "glProgramUniform1iv", Int, i32, 1;
    uniform_2iv "glUniform2iv", program_uniform_2iv "glProgramUniform2iv", Int, i32, 2;
    uniform_3iv "glUniform3iv", program_uniform_3iv "glProgramUniform3iv", Int, i32, 3;
    uniform_4iv "glUniform4iv", program_uniform_4iv "glProgramUniform4iv", Int, i32, 4;
    uniform_1uiv "glUniform1uiv", program_uniform_1uiv "glProgramUniform1uiv", Uint, u32, 1;
    uniform_2uiv "glUniform2uiv", program_uniform_2uiv "glProgramUniform2uiv", Uint, u32, 2;
    uniform_3uiv "glUniform3uiv", program_uniform_3uiv "glProgramUniform3uiv", Uint, u32, 3;
    uniform_4uiv "glUniform4uiv", program_uniform_4uiv "glProgramUniform4uiv", Uint, u32, 4;
    uniform_1dv "glUniform1dv", program_uniform_1dv "glProgramUniform1dv", Double, f64, 1;
    uniform_2dv "glUniform2dv", program_uniform_2dv "glProgramUniform2dv", Double, f64, 2;
    uniform_3dv "glUniform3dv", program_uniform_3dv "glProgramUniform3dv", Double, f64, 3;
    uniform_4dv "glUniform4dv", program_uniform_4dv "glProgramUniform4dv", Double, f64, 4;
}

uniform_matrix_fns! {
    uniform_matrix_2fv "glUniformMatrix2fv", program_uniform_matrix_2fv "glProgramUniformMatrix2fv", Float, f32, 2, 2;
    uniform_matrix_3fv "glUniformMatrix3fv", program_uniform_matrix_3fv "glProgramUniformMatrix3fv", Float, f32, 3, 3;
    uniform_matrix_4fv "glUniformMatrix4fv", program_uniform_matrix_4fv "glProgramUniformMatrix4fv", Float, f32, 4, 4;
    uniform_matrix_2x3fv "glUniformMatrix2x3fv", program_uniform_matrix_2x3fv "glProgramUniformMatrix2x3fv", Float, f32, 2, 3;
    uniform_matrix_3x2fv "glUniformMatrix3x2fv", program_uniform_matrix_3x2fv "glProgramUniformMatrix3x2fv", Float, f32, 3, 2;
    uniform_matrix_2x4fv "glUniformMatrix2x4fv", program_uniform_matrix_2x4fv "glProgramUniformMatrix2x4fv", Float, f32, 2, 4;
    uniform_matrix_4x2fv "glUniformMatrix4x2fv", program_uniform_matrix_4x2fv "glProgramUniformMatrix4x2fv", Float, f32, 4, 2;
    uniform_matrix_3x4fv "glUniformMatrix3x4fv", program_uniform_matrix_3x4fv "glProgramUniformMatrix3x4fv", Float, f32, 3, 4;
    uniform_matrix_4x3fv "glUniformMatrix4x3fv", program_uniform_matrix_4x3fv "glProgramUniformMatrix4x3fv", Float, f32, 4, 3;
    uniform_matrix_2dv "glUniformMatrix2dv", program_uniform_matrix_2dv "glProgramUniformMatrix2dv", Double, f64, 2, 2;
    uniform_matrix_3dv "glUniformMatrix3dv", program_uniform_matrix_3dv "glProgramUniformMatrix3dv", Double, f64, 3, 3;
    uniform_matrix_4dv "glUniformMatrix4dv", program_uniform_matrix_4dv "glProgramUniformMatrix4dv", Double, f64, 4, 4;
    uniform_matrix_2x3dv "glUniformMatrix2x3dv", program_uniform_matrix_2x3dv "glProgramUniformMatrix2x3dv", Double, f64, 2, 3;
    uniform_matrix_3x2dv "glUniformMatrix3x2dv", program_uniform_matrix_3x2dv "glProgramUniformMatrix3x2dv", Double, f64, 3, 2;
    uniform_matrix_2x4dv "glUniformMatrix2x4dv", program_uniform_matrix_2x4dv "glProgramUniformMatrix2x4dv", Double, f64, 2, 4;
    uniform_matrix_4x2dv "glUniformMatrix4x2dv", program_uniform_matrix_4x2dv "glProgramUniformMatrix4x2dv", Double, f64, 4, 2;
    uniform_matrix_3x4dv "glUniformMatrix3x4dv", program_uniform_matrix_3x4dv "glProgramUniformMatrix3x4dv", Double, f64, 3, 4;
    uniform_matrix_4x3dv "glUniformMatrix4x3dv", program_uniform_matrix_4x3dv "glProgramUniformMatrix4x3dv", Double, f64, 4, 3;
}

/// glUniform{1,2,3,4}ui64ARB and the `v` forms (ARB_gpu_shader_int64), for `uint64_t`
/// uniforms.
macro_rules! uniform_u64_fns {
    ($($name:ident $gl:literal, $vname:ident $vgl:literal, $n:expr, ($($arg:ident),+));* $(;)?) => {
        impl Context {$(
            #[doc = concat!($gl, " (ARB_gpu_shader_int64).")]
            pub fn $name(&mut self, location: i32, $($arg: u64),+) {
                self.dispatch($gl, Group::CheckedOut, Default::default, |this| {
                    let w: Vec<u32> = [$($arg),+].iter().flat_map(|&v| [v as u32, (v >> 32) as u32]).collect();
                    this.uniform_target().and_then(|p| this.set_uniform(p, location, UniformKind::Uint64, $n, 1, false, &w))
                })
            }
            #[doc = concat!($vgl, " (count = values.len() / components).")]
            pub fn $vname(&mut self, location: i32, values: &[u64]) {
                self.dispatch($vgl, Group::CheckedOut, Default::default, |this| {
                    let w: Vec<u32> = values.iter().flat_map(|&v| [v as u32, (v >> 32) as u32]).collect();
                    this.uniform_target().and_then(|p| this.set_uniform(p, location, UniformKind::Uint64, $n, 1, false, &w))
                })
            }
        )*}
    };
}

uniform_u64_fns! {
    uniform_1ui64_arb "glUniform1ui64ARB", uniform_1ui64v_arb "glUniform1ui64vARB", 1, (x);
    uniform_2ui64_arb "glUniform2ui64ARB", uniform_2ui64v_arb "glUniform2ui64vARB", 2, (x, y);
    uniform_3ui64_arb "glUniform3ui64ARB", uniform_3ui64v_arb "glUniform3ui64vARB", 3, (x, y, z);
    uniform_4ui64_arb "glUniform4ui64ARB", uniform_4ui64v_arb "glUniform4ui64vARB", 4, (x, y, z, w);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::api::context::{BackEnd, Context, FrontEnd};
    use crate::gl::enums as gl;
    use crate::sampler::DescriptorTable;

    /// A front end or back end that panics (a softgl bug) runs on a compiler thread; the
    /// panic comes back to the command as before compilers had threads: GL_OUT_OF_MEMORY
    /// and a message naming the command, and the context keeps working.
    #[test]
    fn a_panic_on_the_compiler_thread_is_contained() {
        let front_end: FrontEnd = Arc::new(|stage, src: &str| {
            if src.contains("panic") {
                assert!(crate::jit::on_compiler_thread());
                panic!("front end boom");
            }
            crate::glsl::compile(stage, src)
        });
        let back_end: BackEnd = Arc::new(|_m| panic!("back end boom"));
        let table = Arc::new(DescriptorTable::new());
        let mut c = Context::with_parts(4, 4, 1, table.clone(), table, front_end, back_end);
        c.debug_messages();
        let s = c.create_shader(gl::FRAGMENT_SHADER);
        c.shader_source(s, &["panic"]);
        c.compile_shader(s);
        assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
        let msgs = c.debug_messages();
        assert!(
            msgs.iter()
                .any(|m| m.message.contains("glCompileShader")
                    && m.message.contains("front end boom")),
            "{msgs:?}"
        );
        // A real shader compiles afterwards; the link's JIT panics the same way.
        let vs = c.create_shader(gl::VERTEX_SHADER);
        c.shader_source(
            vs,
            &["#version 330\nvoid main() { gl_Position = vec4(0.0); }\n"],
        );
        c.compile_shader(vs);
        c.shader_source(
            s,
            &["#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"],
        );
        c.compile_shader(s);
        assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 1);
        let p = c.create_program();
        c.attach_shader(p, vs);
        c.attach_shader(p, s);
        c.link_program(p);
        assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
        let msgs = c.debug_messages();
        assert!(
            msgs.iter()
                .any(|m| m.message.contains("glLinkProgram") && m.message.contains("back end boom")),
            "{msgs:?}"
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}
