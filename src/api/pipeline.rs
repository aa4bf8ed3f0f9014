//! Program pipeline objects and separate shader objects (GL 4.5 core §7.4,
//! ARB_separate_shader_objects): the pipeline commands and their state, glCreateShaderProgramv,
//! pipeline validation (§11.1.3.11), and the composition of separable programs' stages into
//! the one draw program the rasterizer runs. Linking a separable program (any subset of
//! stages, `Executable::stages`) is `program.rs`'s.
//!
//! **Composition.** A draw with a pipeline runs the vertex, geometry and fragment stages of
//! up to three programs. Their modules are linked again as one program with open
//! interfaces (`LinkOptions::open_interfaces`: outputs and inputs match by location, else
//! by name, GL 4.5 core §7.4.1; an input nothing matches reads 0) and the code each
//! program compiled is reused, so only a geometry stage, whose uniforms move into the
//! vertex stage's block (`ir::geometry::merge_into_vertex`), is compiled again. Each
//! program keeps its own uniforms: before the link every default-block uniform and block
//! of a stage is renamed with its program's name (`"7\u{1f}color"`), so the stages of two
//! programs never merge a name, and the stages of one program still do. The composition
//! records where each of its uniform words, sampler locations and block bindings comes
//! from in its programs (`StateCopy`), and a draw copies them over (a few hundred words).
//! It is cached per pipeline object, keyed by the programs' executables
//! (`Executable::serial`): glUseProgramStages and a relink of a stage's program build it
//! again, repeated draws do not.

use std::collections::HashMap;
use std::sync::Arc;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{NameTable, PipelineName, ProgramObjectName};
use crate::api::program::{Executable, ProgramObject, SamplerValue};
use crate::gl::enums as gl;
use crate::ir::link::LinkOptions;
use crate::ir::Module;

/// Indices of `Pipeline::stages`, in pipeline order (GL 4.5 core §11.1.3.11 speaks of
/// stages "between" others in this order).
const VERTEX: usize = 0;
const TESS_CONTROL: usize = 1;
const TESS_EVALUATION: usize = 2;
const GEOMETRY: usize = 3;
const FRAGMENT: usize = 4;
const COMPUTE: usize = 5;
/// The graphics stages: `stages[..GRAPHICS]`.
const GRAPHICS: usize = 5;

/// The stage bit of each index of `Pipeline::stages`.
const BITS: [u32; 6] = [
    gl::VERTEX_SHADER_BIT,
    gl::TESS_CONTROL_SHADER_BIT,
    gl::TESS_EVALUATION_SHADER_BIT,
    gl::GEOMETRY_SHADER_BIT,
    gl::FRAGMENT_SHADER_BIT,
    gl::COMPUTE_SHADER_BIT,
];

/// The stage bits glUseProgramStages accepts (GL 4.5 core §7.4) besides ALL_SHADER_BITS.
const STAGE_BITS: u32 = gl::VERTEX_SHADER_BIT
    | gl::TESS_CONTROL_SHADER_BIT
    | gl::TESS_EVALUATION_SHADER_BIT
    | gl::GEOMETRY_SHADER_BIT
    | gl::FRAGMENT_SHADER_BIT
    | gl::COMPUTE_SHADER_BIT;

/// One program pipeline object (GL 4.5 core §7.4, table 23.31).
#[derive(Default)]
pub(crate) struct Pipeline {
    /// The program of each stage, in the order of `VERTEX` .. `COMPUTE`.
    stages: [Option<ProgramObjectName>; 6],
    /// ACTIVE_PROGRAM: where glUniform* goes while no program is current.
    active: Option<ProgramObjectName>,
    validate_status: bool,
    info_log: String,
    /// The draw program of the graphics stages, while their executables are the ones it
    /// was built from.
    composed: Option<Box<Composed>>,
}

/// Pipeline objects of a context (not shared: they are container objects) and the bound one.
#[derive(Default)]
pub(crate) struct PipelineState {
    names: NameTable<PipelineName, Pipeline>,
    bound: Option<PipelineName>,
    /// How many compositions draws have built (the cache's test).
    compositions: u64,
}

impl PipelineState {
    /// GL_PROGRAM_PIPELINE_BINDING.
    pub(crate) fn bound(&self) -> Option<u32> {
        self.bound.map(|p| p.0)
    }

    /// The bound pipeline's ACTIVE_PROGRAM.
    pub(crate) fn active_program(&self) -> Option<ProgramObjectName> {
        self.names.get(self.bound?)?.active
    }

    /// The bound pipeline's composed draw program, once `prepare_pipeline_draw` built it.
    pub(crate) fn composed_executable(&self) -> Option<&Executable> {
        Some(&self.names.get(self.bound?)?.composed.as_ref()?.exe)
    }

    /// The program of `stage` in the bound pipeline (tessellation stages: none).
    pub(crate) fn stage_program(&self, stage: crate::ir::Stage) -> Option<ProgramObjectName> {
        use crate::ir::Stage;
        let i = match stage {
            Stage::Vertex => VERTEX,
            Stage::Geometry => GEOMETRY,
            Stage::Fragment => FRAGMENT,
            Stage::Compute => COMPUTE,
            Stage::TessControl | Stage::TessEval => return None,
        };
        self.names.get(self.bound?)?.stages[i]
    }

    /// The program of the bound pipeline's vertex stage (named in loop-budget reports).
    pub(crate) fn vertex_program(&self) -> Option<ProgramObjectName> {
        self.names.get(self.bound?)?.stages[VERTEX]
    }
}

/// A pipeline's draw program: the executable the draw runs, and where its uniform state
/// comes from.
struct Composed {
    /// The (program, executable serial) of the graphics stages it was built from.
    key: [Option<(ProgramObjectName, u64)>; GRAPHICS],
    exe: Executable,
    copies: Vec<StateCopy>,
}

/// One piece of a program's uniform state a composition takes over at each draw. `from`
/// is the program.
#[derive(Clone, Debug)]
enum StateCopy {
    /// `len` default-block words: the program's stage `src.0` at word `src.1` to the
    /// composition's stage `dst.0` at word `dst.1`.
    Words {
        from: ProgramObjectName,
        src: (usize, u32),
        dst: (usize, u32),
        len: u32,
    },
    /// A sampler uniform element's value (texture unit or handle), by location.
    Sampler {
        from: ProgramObjectName,
        src: u32,
        dst: u32,
    },
    /// A uniform block's binding point, by block index.
    Block {
        from: ProgramObjectName,
        src: usize,
        dst: usize,
    },
    /// A shader storage block's binding point, by block index.
    Storage {
        from: ProgramObjectName,
        src: usize,
        dst: usize,
    },
}

/// Which stages (`VERTEX` .. `COMPUTE`) a separable program was linked with.
fn linked_stages(exe: &Executable) -> [bool; 6] {
    let sep = exe.stages.as_deref();
    let has = |pick: fn(&crate::api::program::SeparableStages) -> bool| sep.is_some_and(pick);
    [
        has(|s| s.vs.is_some()),
        has(|s| s.tcs.is_some()),
        has(|s| s.tes.is_some()),
        has(|s| s.gs.is_some()),
        has(|s| s.fs.is_some()),
        exe.compute.is_some(),
    ]
}

/// The name prefix of a program's uniforms and blocks in a composition.
fn prefix(p: ProgramObjectName) -> String {
    format!("{}\u{1f}", p.0)
}

/// `m` with its default-block uniforms and its blocks renamed with `prefix`.
fn renamed(m: &Module, prefix: &str) -> Module {
    let mut m = m.clone();
    for u in &mut m.uniforms {
        u.name = format!("{prefix}{}", u.name);
    }
    for b in m.blocks.iter_mut().chain(m.storage_blocks.iter_mut()) {
        b.name = format!("{prefix}{}", b.name);
    }
    m
}

/// The program a renamed uniform or block name came from, and its own name.
fn source_of(name: &str) -> Option<(ProgramObjectName, &str)> {
    let (p, rest) = name.split_once('\u{1f}')?;
    Some((ProgramObjectName(p.parse().ok()?), rest))
}

gl_commands! {
    /// glGenProgramPipelines: names only; the object comes with the first bind.
    "glGenProgramPipelines"
    fn gen_program_pipelines(n: i32) -> Vec<u32> = try_gen_program_pipelines;
    /// glCreateProgramPipelines: names with their objects.
    "glCreateProgramPipelines"
    fn create_program_pipelines(n: i32) -> Vec<u32> = try_create_program_pipelines;
    /// glDeleteProgramPipelines: a bound pipeline is unbound; unknown names and 0 are ignored.
    "glDeleteProgramPipelines"
    fn delete_program_pipelines(pipelines: &[u32]) = try_delete_program_pipelines;
    /// glIsProgramPipeline: true once the name has its object (bound or created).
    "glIsProgramPipeline"
    fn is_program_pipeline(pipeline: u32) -> bool = try_is_program_pipeline;
    /// glBindProgramPipeline: 0 unbinds.
    "glBindProgramPipeline"
    fn bind_program_pipeline(pipeline: u32) = try_bind_program_pipeline;
    /// glUseProgramStages (GL 4.5 core §7.4).
    "glUseProgramStages"
    fn use_program_stages(pipeline: u32, stages: u32, program: u32) = try_use_program_stages;
    /// glActiveShaderProgram: the program glUniform* sets while no program is current.
    "glActiveShaderProgram"
    fn active_shader_program(pipeline: u32, program: u32) = try_active_shader_program;
    /// glGetProgramPipelineiv (GL 4.5 core §7.4, table 23.31).
    "glGetProgramPipelineiv"
    fn get_program_pipelineiv(pipeline: u32, pname: u32) -> i32 = try_get_program_pipelineiv;
    /// glValidateProgramPipeline (GL 4.5 core §11.1.3.11): VALIDATE_STATUS and the info log.
    "glValidateProgramPipeline"
    fn validate_program_pipeline(pipeline: u32) = try_validate_program_pipeline;
    /// glGetProgramPipelineInfoLog.
    "glGetProgramPipelineInfoLog"
    fn get_program_pipeline_info_log(pipeline: u32) -> String = try_get_program_pipeline_info_log;
    /// glCreateShaderProgramv (GL 4.5 core §7.3): a separable program of one shader, 0 when
    /// the shader type is refused.
    "glCreateShaderProgramv"
    fn create_shader_programv(ty: u32, strings: &[&str]) -> u32
        = try_create_shader_programv, group by body;
}

impl Context {
    /// The pipeline object of `pipeline`, created if the name was only generated (GL 4.5
    /// core §7.4: commands that take a generated name create its state vector).
    fn pipeline_mut(&mut self, pipeline: u32) -> GlResult<&mut Pipeline> {
        let name = PipelineName(pipeline);
        if pipeline == 0 || !self.pipelines.names.ensure(name, Pipeline::default) {
            return Err(GlError::InvalidOperation(
                "not a program pipeline name from glGenProgramPipelines",
            ));
        }
        self.pipelines
            .names
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("not a program pipeline name"))
    }

    pub(crate) fn try_gen_program_pipelines(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.pipelines.names.gen_many(n))
    }

    pub(crate) fn try_create_program_pipelines(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.pipelines.names.create_many(n, Pipeline::default)
        })
    }

    pub(crate) fn try_delete_program_pipelines(&mut self, pipelines: &[u32]) -> GlResult<()> {
        for &p in pipelines {
            let name = PipelineName(p);
            if p == 0 || !self.pipelines.names.is_name(name) {
                continue;
            }
            // GL 4.5 core §7.4: deleting the bound pipeline binds 0.
            if self.pipelines.bound == Some(name) {
                self.pipelines.bound = None;
            }
            self.pipelines.names.remove(name);
        }
        Ok(())
    }

    pub(crate) fn try_is_program_pipeline(&mut self, pipeline: u32) -> GlResult<bool> {
        Ok(self.pipelines.names.get(PipelineName(pipeline)).is_some())
    }

    pub(crate) fn try_bind_program_pipeline(&mut self, pipeline: u32) -> GlResult<()> {
        // GL 4.5 core §13.3.2: not while transform feedback captures.
        if self.xfb.capturing() {
            return Err(GlError::InvalidOperation(
                "transform feedback is active and not paused",
            ));
        }
        if pipeline == 0 {
            self.pipelines.bound = None;
            self.subroutine_selection.reset();
            return Ok(());
        }
        self.pipeline_mut(pipeline)?;
        self.pipelines.bound = Some(PipelineName(pipeline));
        // GL 4.5 core §7.10: subroutine uniforms go back to their defaults.
        self.subroutine_selection.reset();
        Ok(())
    }

    /// A program name that glUseProgramStages and glActiveShaderProgram accept: a linked
    /// program (`None` for 0).
    fn stage_program(&self, program: u32) -> GlResult<Option<ProgramObjectName>> {
        if program == 0 {
            return Ok(None);
        }
        let p = self.program_obj(program)?;
        if !p.link_status || p.exe.is_none() {
            return Err(GlError::InvalidOperation("program is not linked"));
        }
        Ok(Some(ProgramObjectName(program)))
    }

    pub(crate) fn try_use_program_stages(
        &mut self,
        pipeline: u32,
        stages: u32,
        program: u32,
    ) -> GlResult<()> {
        // Mesa's order of checks: the pipeline, the bits, transform feedback, the program.
        self.pipeline_mut(pipeline)?;
        if stages != gl::ALL_SHADER_BITS && stages & !STAGE_BITS != 0 {
            return Err(GlError::InvalidValue(
                "stages has bits that are not stage bits",
            ));
        }
        if self.pipelines.bound == Some(PipelineName(pipeline)) && self.xfb.capturing() {
            return Err(GlError::InvalidOperation(
                "transform feedback is active and not paused",
            ));
        }
        let program_name = self.stage_program(program)?;
        // Which stages the program has, as linked with PROGRAM_SEPARABLE.
        let mut has = [false; 6];
        if program_name.is_some() {
            let p = self.program_obj(program)?;
            let exe = p.exe.as_ref().filter(|_| p.link_status);
            let Some(exe) = exe.filter(|e| e.stages.is_some()) else {
                return Err(GlError::InvalidOperation(
                    "program was not linked with GL_PROGRAM_SEPARABLE",
                ));
            };
            has = linked_stages(exe);
        }
        let p = self.pipeline_mut(pipeline)?;
        for (i, bit) in BITS.into_iter().enumerate() {
            if stages & bit != 0 {
                // A stage the program does not have is left without a program (§7.4).
                p.stages[i] = program_name.filter(|_| has[i]);
            }
        }
        p.composed = None;
        // GL 4.5 core §7.10: subroutine uniforms go back to their defaults.
        self.subroutine_selection.reset();
        Ok(())
    }

    pub(crate) fn try_active_shader_program(
        &mut self,
        pipeline: u32,
        program: u32,
    ) -> GlResult<()> {
        let program = self.stage_program(program)?;
        self.pipeline_mut(pipeline)?.active = program;
        Ok(())
    }

    pub(crate) fn try_get_program_pipelineiv(
        &mut self,
        pipeline: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let p = self.pipeline_mut(pipeline)?;
        let name = |n: Option<ProgramObjectName>| n.map_or(0, |n| n.0 as i32);
        Ok(match pname {
            gl::ACTIVE_PROGRAM => name(p.active),
            gl::VERTEX_SHADER => name(p.stages[VERTEX]),
            gl::TESS_CONTROL_SHADER => name(p.stages[TESS_CONTROL]),
            gl::TESS_EVALUATION_SHADER => name(p.stages[TESS_EVALUATION]),
            gl::GEOMETRY_SHADER => name(p.stages[GEOMETRY]),
            gl::FRAGMENT_SHADER => name(p.stages[FRAGMENT]),
            gl::COMPUTE_SHADER => name(p.stages[COMPUTE]),
            gl::VALIDATE_STATUS => p.validate_status as i32,
            gl::INFO_LOG_LENGTH => {
                if p.info_log.is_empty() {
                    0
                } else {
                    p.info_log.len() as i32 + 1
                }
            }
            _ => return Err(GlError::BadEnum("program pipeline parameter", pname)),
        })
    }

    pub(crate) fn try_validate_program_pipeline(&mut self, pipeline: u32) -> GlResult<()> {
        let stages = self.pipeline_mut(pipeline)?.stages;
        let result = self.check_pipeline(&stages, false);
        let p = self.pipeline_mut(pipeline)?;
        p.validate_status = result.is_ok();
        p.info_log = match result {
            Ok(()) => String::new(),
            Err(why) => format!("error: {why}\n"),
        };
        Ok(())
    }

    pub(crate) fn try_get_program_pipeline_info_log(&mut self, pipeline: u32) -> GlResult<String> {
        // A generated name without its object yet has an empty log (Mesa does not create
        // the object here).
        let name = PipelineName(pipeline);
        if pipeline != 0 && self.pipelines.names.is_name(name) {
            return Ok(self
                .pipelines
                .names
                .get(name)
                .map_or_else(String::new, |p| p.info_log.clone()));
        }
        Ok(self.pipeline_mut(pipeline)?.info_log.clone())
    }

    /// The separable executable of a stage's program, when it is linked.
    fn separable_executable(&self, p: ProgramObjectName) -> Option<&Executable> {
        match self.objs.programs.get(p)? {
            ProgramObject::Program(pr) if pr.link_status => {
                pr.exe.as_ref().filter(|e| e.stages.is_some())
            }
            _ => None,
        }
    }

    /// Pipeline validation (GL 4.5 core §11.1.3.11), the reason it fails. `compute`: for a
    /// dispatch, which needs a compute stage; else for a draw (or glValidateProgramPipeline,
    /// which checks the graphics stages when there are any).
    fn check_pipeline(
        &self,
        stages: &[Option<ProgramObjectName>; 6],
        compute: bool,
    ) -> Result<(), &'static str> {
        for p in stages.iter().flatten() {
            let Some(exe) = self.separable_executable(*p) else {
                return Err(
                    "a stage's program is deleted, not linked, or not linked with GL_PROGRAM_SEPARABLE",
                );
            };
            // "A program object is active for at least one, but not all of the shader
            // stages that were present when the program was linked."
            let linked = linked_stages(exe);
            if (0..6).any(|i| linked[i] && stages[i] != Some(*p)) {
                return Err(
                    "a program is active for some but not all of the stages it was linked with",
                );
            }
        }
        // "Any two active samplers in the current program object are of different types,
        // but refer to the same texture image unit" (over the pipeline's programs).
        let mut units: HashMap<u32, crate::ir::BaseType> = HashMap::new();
        let mut seen = Vec::new();
        for p in stages.iter().flatten() {
            if seen.contains(p) {
                continue;
            }
            seen.push(*p);
            let Some(exe) = self.separable_executable(*p) else {
                continue;
            };
            for u in exe.linked.uniforms.iter().filter(|u| u.is_sampler()) {
                for e in 0..u.elements() {
                    let Some(SamplerValue::Unit(unit)) = exe.samplers.get(&(u.location + e)) else {
                        continue;
                    };
                    if *units.entry(*unit).or_insert(u.ty.base) != u.ty.base {
                        return Err(
                            "two active samplers of different types use the same texture unit",
                        );
                    }
                }
            }
        }
        if compute {
            if stages[COMPUTE].is_none() {
                return Err("the pipeline has no compute stage");
            }
            return Ok(());
        }
        let graphics = &stages[..COMPUTE];
        if graphics.iter().all(Option::is_none) && stages[COMPUTE].is_none() {
            return Err("the pipeline has no program in any stage");
        }
        // "One program object is active for at least two shader stages and a second
        // program is active for a shader stage between two stages for which the first
        // program was active."
        for (i, p) in graphics.iter().enumerate() {
            let Some(p) = p else { continue };
            let Some(last) = graphics.iter().rposition(|q| *q == Some(*p)) else {
                continue;
            };
            if graphics[i..last].iter().any(|q| q.is_some_and(|q| q != *p)) {
                return Err("a program is active in two stages with another program between them");
            }
        }
        // "There is an active program for tessellation control, tessellation evaluation,
        // or geometry stages with corresponding executable shader, but there is no active
        // program with executable vertex shader."
        if graphics[TESS_CONTROL..=GEOMETRY]
            .iter()
            .any(Option::is_some)
            && graphics[VERTEX].is_none()
        {
            return Err("the pipeline has a tessellation or geometry stage but no vertex stage");
        }
        Ok(())
    }

    /// Before a draw with no current program: validates the bound pipeline and makes its
    /// draw program current (`current_executable`), composing it again only when a stage
    /// changed, then copies the programs' uniform state into it. `Ok(false)`: the pipeline
    /// has no vertex stage, so the draw has no defined result and draws nothing (GL 4.5
    /// core §11.1.3.11 "this is not an error").
    pub(crate) fn prepare_pipeline_draw(&mut self) -> GlResult<bool> {
        if self.program.is_some() {
            return Ok(true);
        }
        let Some(name) = self.pipelines.bound else {
            return Ok(true);
        };
        let Some(pipeline) = self.pipelines.names.get(name) else {
            return Ok(true);
        };
        let stages = pipeline.stages;
        if let Err(why) = self.check_pipeline(&stages, false) {
            self.debug_note(why);
            return Err(GlError::InvalidOperation(
                "the bound program pipeline fails validation (glValidateProgramPipeline says why)",
            ));
        }
        if stages[VERTEX].is_none() {
            if let Some(p) = self.pipelines.names.get_mut(name) {
                p.composed = None;
            }
            return Ok(false);
        }
        let key = [VERTEX, TESS_CONTROL, TESS_EVALUATION, GEOMETRY, FRAGMENT]
            .map(|i| stages[i].map(|p| (p, self.separable_executable(p).map_or(0, |e| e.serial))));
        let cached = self
            .pipelines
            .names
            .get_mut(name)
            .and_then(|p| p.composed.take());
        let mut composed = match cached.filter(|c| c.key == key) {
            Some(c) => c,
            None => match self.compose(key) {
                Ok(c) => {
                    self.pipelines.compositions += 1;
                    Box::new(c)
                }
                Err(log) => {
                    if let Some(p) = self.pipelines.names.get_mut(name) {
                        p.info_log = log;
                    }
                    return Err(GlError::InvalidOperation(
                        "the program pipeline's stages do not link together (see its info log)",
                    ));
                }
            },
        };
        self.copy_uniform_state(&mut composed);
        if let Some(p) = self.pipelines.names.get_mut(name) {
            p.composed = Some(composed);
        }
        Ok(true)
    }

    /// The executable a dispatch runs: the current program's, else the compute stage's of
    /// the bound pipeline (validated).
    pub(crate) fn compute_executable(&self) -> GlResult<&Executable> {
        if self.program.is_none() {
            if let Some(p) = self
                .pipelines
                .bound
                .and_then(|b| self.pipelines.names.get(b))
            {
                let stages = p.stages;
                if self.check_pipeline(&stages, true).is_err() {
                    return Err(GlError::InvalidOperation(
                        "the bound program pipeline fails validation for a dispatch \
                         (glValidateProgramPipeline says why)",
                    ));
                }
                return stages[COMPUTE]
                    .and_then(|cs| self.separable_executable(cs))
                    .ok_or(GlError::InvalidOperation("no compute program"));
            }
        }
        self.current_executable()
            .ok_or(GlError::InvalidOperation("no current program"))
    }

    /// The program a draw or dispatch names in loop-budget reports: the current one, else
    /// the bound pipeline's vertex stage's (0: none).
    pub(crate) fn drawing_program(&self) -> u32 {
        self.program
            .or_else(|| self.pipelines.vertex_program())
            .map_or(0, |p| p.0)
    }

    /// A low-severity KHR_debug note saying why the next error happens.
    fn debug_note(&mut self, why: &str) {
        self.errors.push(crate::api::error::DebugMessage {
            source: gl::DEBUG_SOURCE_API,
            ty: gl::DEBUG_TYPE_OTHER,
            id: 3,
            severity: gl::DEBUG_SEVERITY_LOW,
            message: format!("program pipeline: {why}"),
        });
    }

    /// Links the graphics stages of `key`'s programs into one draw program (module docs).
    /// The error is the info log.
    fn compose(
        &self,
        key: [Option<(ProgramObjectName, u64)>; GRAPHICS],
    ) -> Result<Composed, String> {
        let exe = |i: usize| key[i].and_then(|(p, _)| Some((p, self.separable_executable(p)?)));
        let (Some((vp, vexe)), g, f) = (exe(VERTEX), exe(GEOMETRY), exe(FRAGMENT)) else {
            return Err("error: the pipeline has no vertex stage\n".into());
        };
        let (tc, te) = (exe(TESS_CONTROL), exe(TESS_EVALUATION));
        let stage =
            |e: &Executable,
             pick: fn(&crate::api::program::SeparableStages) -> &Option<Arc<Module>>| {
                e.stages.as_deref().and_then(|s| pick(s).clone())
            };
        let vs = stage(vexe, |s| &s.vs).ok_or("error: no vertex stage\n")?;
        let vs_r = renamed(&vs, &prefix(vp));
        let mut opts = LinkOptions {
            attrib_bindings: vexe
                .stages
                .as_deref()
                .map(|s| s.opts.attrib_bindings.clone())
                .unwrap_or_default(),
            open_interfaces: true,
            ..LinkOptions::default()
        };
        let (fs, fs_code, fs_r) = match f {
            Some((fp, fexe)) => {
                let fs = stage(fexe, |s| &s.fs).ok_or("error: no fragment stage\n")?;
                if let Some(s) = fexe.stages.as_deref() {
                    opts.frag_data_bindings = s.opts.frag_data_bindings.clone();
                    opts.frag_data_index1 = s.opts.frag_data_index1.clone();
                }
                let r = renamed(&fs, &prefix(fp));
                (fs, fexe.code.fs.clone(), r)
            }
            None => {
                // No fragment stage: as a program without one (program.rs), an empty
                // fragment shader; the vertex program compiled one when it had no
                // fragment stage itself.
                let fs =
                    crate::api::program::stand_in_shader(crate::ir::Stage::Fragment, vs.version)?;
                let code =
                    (self.back_end)(&fs).map_err(|e| format!("error: fragment shader: {e}\n"))?;
                let r = (*fs).clone();
                (fs, code, r)
            }
        };
        let vs_code = vexe.code.vs.clone();
        let log = |errs: Vec<crate::ir::link::LinkError>| {
            errs.iter()
                .map(|e| format!("error: {e}\n"))
                .collect::<String>()
        };
        let mut exe = match (te, g) {
            // Tessellation: the stages are linked as one program's are
            // (`tess::link_modules`) and all compiled again, since the control and
            // evaluation shaders' uniforms merge into the vertex stage's block. A control
            // shader without an evaluation shader is left out (tessellation is active only
            // with an evaluation stage, GL 4.5 core §11.2).
            (Some((ep, eexe)), g) => {
                let tes = stage(eexe, |s| &s.tes).ok_or("error: no tessellation stage\n")?;
                let tcs = match tc {
                    Some((cp, cexe)) => Some(renamed(
                        &*stage(cexe, |s| &s.tcs).ok_or("error: no tessellation stage\n")?,
                        &prefix(cp),
                    )),
                    None => None,
                };
                let gs = match g {
                    Some((gp, gexe)) => Some(renamed(
                        &*stage(gexe, |s| &s.gs).ok_or("error: no geometry stage\n")?,
                        &prefix(gp),
                    )),
                    None => None,
                };
                crate::api::tess::link_modules(
                    &vs_r,
                    tcs.as_ref(),
                    &renamed(&tes, &prefix(ep)),
                    gs.as_ref(),
                    &fs_r,
                    &opts,
                    &self.back_end,
                )?
            }
            (None, Some((gp, gexe))) => {
                let gs = stage(gexe, |s| &s.gs).ok_or("error: no geometry stage\n")?;
                let l = crate::ir::geometry::link_geometry(
                    &vs_r,
                    &renamed(&gs, &prefix(gp)),
                    &fs_r,
                    &opts,
                )
                .map_err(log)?;
                // The geometry code the vertex stage's program compiled fits when the
                // same program has both stages (the same merge); else it is compiled here.
                let gs_code = match (&vexe.code.gs, gp == vp) {
                    (Some(g), true) => g.code.clone(),
                    _ => (self.back_end)(&l.gs)
                        .map_err(|e| format!("error: geometry shader: {e}\n"))?,
                };
                crate::api::geometry::executable_of(&vs, &fs, l, [vs_code, gs_code, fs_code])?
            }
            (None, None) => {
                let linked = crate::ir::link::link(&vs_r, &fs_r, &opts).map_err(log)?;
                Context::executable_of(&vs, &fs, linked, vs_code, fs_code)
            }
        };
        let programs = [Some((vp, vexe)), tc.filter(|_| te.is_some()), te, g, f];
        exe.writes_storage |= programs.iter().flatten().any(|(_, e)| e.writes_storage);
        // Transform feedback captures the last vertex processing stage's outputs, as its
        // program laid them out (the composition keeps that stage's output words).
        exe.xfb = g.or(te).map_or(vexe, |(_, e)| e).xfb.clone();
        let copies = copies_of(&exe, |p| {
            programs
                .into_iter()
                .flatten()
                .find(|(q, _)| *q == p)
                .map(|(_, e)| e)
        });
        Ok(Composed { key, exe, copies })
    }

    /// Copies the stage programs' uniform values, sampler values and block bindings into
    /// the composition (`Composed::copies`).
    fn copy_uniform_state(&self, c: &mut Composed) {
        let exe = &mut c.exe;
        for copy in &c.copies {
            let from = |p: ProgramObjectName| self.separable_executable(p);
            match *copy {
                StateCopy::Words {
                    from: p,
                    src,
                    dst,
                    len,
                } => {
                    let Some(e) = from(p) else { continue };
                    let (s, d) = (src.1 as usize, dst.1 as usize);
                    let (Some(sw), Some(dw)) = (e.words.get(src.0), exe.words.get_mut(dst.0))
                    else {
                        continue;
                    };
                    let n = (len as usize)
                        .min(sw.len().saturating_sub(s))
                        .min(dw.len().saturating_sub(d));
                    dw[d..d + n].copy_from_slice(&sw[s..s + n]);
                }
                StateCopy::Sampler { from: p, src, dst } => {
                    if let Some(v) = from(p).and_then(|e| e.samplers.get(&src)) {
                        exe.samplers.insert(dst, *v);
                    }
                }
                StateCopy::Block { from: p, src, dst } => {
                    if let (Some(&b), Some(slot)) = (
                        from(p).and_then(|e| e.block_bindings.get(src)),
                        exe.block_bindings.get_mut(dst),
                    ) {
                        *slot = b;
                    }
                }
                StateCopy::Storage { from: p, src, dst } => {
                    if let (Some(&b), Some(slot)) = (
                        from(p).and_then(|e| e.storage_bindings.get(src)),
                        exe.storage_bindings.get_mut(dst),
                    ) {
                        *slot = b;
                    }
                }
            }
        }
    }

    pub(crate) fn try_create_shader_programv(
        &mut self,
        ty: u32,
        strings: &[&str],
    ) -> GlResult<u32> {
        // GL 4.5 core §7.3: CreateShader, ShaderSource, CompileShader, then a separable
        // program that links the shader if it compiled, with the compile log appended.
        let shader = self.with_group(|this| {
            let s = this.try_create_shader(ty)?;
            this.try_shader_source(s, strings)?;
            Ok::<u32, GlError>(s)
        })?;
        self.try_compile_shader(shader)?;
        let (program, compiled) = self.with_group(|this| {
            let program = this.try_create_program()?;
            this.program_mut(program)?.params.separable = true;
            let compiled = this.try_get_shaderiv(shader, gl::COMPILE_STATUS)? != 0;
            if compiled {
                this.try_attach_shader(program, shader)?;
            }
            Ok::<_, GlError>((program, compiled))
        })?;
        if compiled {
            self.try_link_program(program)?;
        }
        self.with_group(|this| {
            if compiled {
                this.try_detach_shader(program, shader)?;
            }
            let shader_log = this.try_get_shader_info_log(shader)?;
            this.program_mut(program)?.info_log.push_str(&shader_log);
            this.try_delete_shader(shader)?;
            Ok(program)
        })
    }
}

/// Where each uniform word, sampler value and block binding of the composition `exe`
/// comes from: `program` gives the executable of a program named in a renamed name.
fn copies_of<'e>(
    exe: &Executable,
    program: impl Fn(ProgramObjectName) -> Option<&'e Executable>,
) -> Vec<StateCopy> {
    let mut copies = Vec::new();
    // The source uniforms by name, per program.
    let mut by_name: HashMap<ProgramObjectName, HashMap<&str, usize>> = HashMap::new();
    for u in &exe.linked.uniforms {
        let Some((p, name)) = source_of(&u.name) else {
            continue;
        };
        let Some(src_exe) = program(p) else {
            continue;
        };
        let names = by_name.entry(p).or_insert_with(|| {
            src_exe
                .linked
                .uniforms
                .iter()
                .enumerate()
                .map(|(i, u)| (u.name.as_str(), i))
                .collect()
        });
        let Some(su) = names.get(name).map(|&i| &src_exe.linked.uniforms[i]) else {
            continue;
        };
        if u.is_sampler() {
            for e in 0..u.elements().min(su.elements()) {
                copies.push(StateCopy::Sampler {
                    from: p,
                    src: su.location + e,
                    dst: u.location + e,
                });
            }
            continue;
        }
        let Some(src) = su
            .offsets
            .iter()
            .enumerate()
            .find_map(|(s, o)| o.map(|o| (s, o)))
        else {
            continue;
        };
        for (d, off) in u.offsets.iter().enumerate() {
            if let Some(off) = off {
                copies.push(StateCopy::Words {
                    from: p,
                    src,
                    dst: (d, *off),
                    len: u.stride * u.elements(),
                });
            }
        }
    }
    for (storage, blocks) in [
        (false, &exe.linked.blocks),
        (true, &exe.linked.storage_blocks),
    ] {
        for (dst, b) in blocks.iter().enumerate() {
            let Some((p, name)) = source_of(&b.name) else {
                continue;
            };
            let Some(src_exe) = program(p) else {
                continue;
            };
            let src_blocks = if storage {
                &src_exe.linked.storage_blocks
            } else {
                &src_exe.linked.blocks
            };
            if let Some(src) = src_blocks.iter().position(|sb| sb.name == name) {
                copies.push(if storage {
                    StateCopy::Storage { from: p, src, dst }
                } else {
                    StateCopy::Block { from: p, src, dst }
                });
            }
        }
    }
    copies
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    /// A separable program of one `kind` shader, linked from a shader that stays attached.
    fn program(c: &mut Context, kind: u32, src: &str) -> u32 {
        let p = c.create_program();
        c.program_parameteri(p, gl::PROGRAM_SEPARABLE, 1);
        let s = c.create_shader(kind);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        c.attach_shader(p, s);
        c.link_program(p);
        assert_eq!(
            c.get_programiv(p, gl::LINK_STATUS),
            1,
            "{}",
            c.get_program_info_log(p)
        );
        p
    }

    #[test]
    fn draws_reuse_the_composition_until_a_stage_changes() {
        let mut c = Context::new(4, 4);
        let vao = c.gen_vertex_arrays(1)[0];
        c.bind_vertex_array(vao);
        let vs = program(
            &mut c,
            gl::VERTEX_SHADER,
            "#version 150\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }",
        );
        let fs = program(
            &mut c,
            gl::FRAGMENT_SHADER,
            "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }",
        );
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        for _ in 0..3 {
            c.draw_arrays(gl::POINTS, 0, 1);
        }
        assert_eq!(c.pipelines.compositions, 1);
        // glUseProgramStages builds it again, even with the same program.
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        c.draw_arrays(gl::POINTS, 0, 1);
        assert_eq!(c.pipelines.compositions, 2);
        // So does a relink of a stage's program, once.
        c.link_program(fs);
        c.draw_arrays(gl::POINTS, 0, 1);
        c.draw_arrays(gl::POINTS, 0, 1);
        assert_eq!(c.pipelines.compositions, 3);
        // glUseProgram's program draws without touching the pipeline's.
        c.use_program(vs);
        c.draw_arrays(gl::POINTS, 0, 1);
        c.use_program(0);
        c.draw_arrays(gl::POINTS, 0, 1);
        assert_eq!(c.pipelines.compositions, 3);
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}
