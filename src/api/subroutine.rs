//! Subroutine uniforms at the API (GL 4.5 core §7.10, ARB_shader_subroutine): the commands
//! that query a program's subroutines and subroutine uniforms per stage, the context's
//! selection (per stage, context state rather than program state) set by
//! glUniformSubroutinesuiv and read by glGetUniformSubroutineuiv, its reset to the defaults
//! by glUseProgram, glUseProgramStages and glBindProgramPipeline, and the draw-time copy of
//! the selection into the hidden default-block words the generated code reads
//! (`ir::subroutine`). The program interfaces `*_SUBROUTINE` and `*_SUBROUTINE_UNIFORM` list
//! the same resources (`subroutine_resources`, used by `program_resource.rs`).

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::program::{Executable, ProgramObject};
use crate::gl::enums as gl;
use crate::ir::subroutine::{hidden_uniform_stage, SubroutineInfo};
use crate::ir::Stage;

/// The stages in GL's order, each with its slot in [`SubroutineSelection`].
const STAGES: [Stage; 6] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];

fn slot(stage: Stage) -> usize {
    STAGES.iter().position(|s| *s == stage).unwrap_or(0)
}

/// The stage a `shadertype` argument names (INVALID_ENUM for anything else).
pub(crate) fn shader_stage(shadertype: u32) -> GlResult<Stage> {
    Ok(match shadertype {
        gl::VERTEX_SHADER => Stage::Vertex,
        gl::TESS_CONTROL_SHADER => Stage::TessControl,
        gl::TESS_EVALUATION_SHADER => Stage::TessEval,
        gl::GEOMETRY_SHADER => Stage::Geometry,
        gl::FRAGMENT_SHADER => Stage::Fragment,
        gl::COMPUTE_SHADER => Stage::Compute,
        _ => return Err(GlError::BadEnum("shader type", shadertype)),
    })
}

/// The context's subroutine selection: per stage, the values glUniformSubroutinesuiv
/// loaded and the executable (`Executable::serial`) they were loaded for. A stage with no
/// entry, or one loaded for another executable (the program was relinked), uses the
/// defaults (`SubroutineInfo::default_selection`).
#[derive(Clone, Debug, Default)]
pub(crate) struct SubroutineSelection {
    stages: [Option<(u64, Vec<u32>)>; 6],
}

impl SubroutineSelection {
    /// Back to the defaults in every stage (GL 4.5 core §7.10: "When UseProgram,
    /// UseProgramStages, or BindProgramPipeline is called, the subroutine uniforms for all
    /// shader stages are reset").
    pub(crate) fn reset(&mut self) {
        self.stages = Default::default();
    }

    /// The values of `stage` for the executable `serial` whose stage is `info`.
    fn values(&self, stage: Stage, serial: u64, info: &SubroutineInfo) -> Vec<u32> {
        match &self.stages[slot(stage)] {
            Some((s, v)) if *s == serial => v.clone(),
            _ => info.default_selection(),
        }
    }
}

/// Where a program reads one stage's selection: its hidden uniform's words in the
/// default block of `block` (0: vertex side, 1: fragment), found once at link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SubroutineSlot {
    stage: Stage,
    block: u8,
    offset: u32,
    len: u32,
}

/// The hidden selection uniforms among a linked program's uniforms (none for most).
pub(crate) fn subroutine_slots(uniforms: &[crate::ir::link::Uniform]) -> Vec<SubroutineSlot> {
    let mut slots = Vec::new();
    for u in uniforms {
        let Some(stage) = hidden_uniform_stage(&u.name) else {
            continue;
        };
        for (block, off) in u.offsets.iter().enumerate() {
            if let Some(offset) = *off {
                slots.push(SubroutineSlot {
                    stage,
                    block: block as u8,
                    offset,
                    len: u.elements(),
                });
            }
        }
    }
    slots
}

/// One resource of a subroutine interface for the program interface queries: its name and
/// its (property, values) pairs.
pub(crate) type SubroutineResource = (String, Vec<(u32, Vec<i32>)>);

/// The resources of `stage`'s SUBROUTINE (`uniforms` false: the functions, in index order)
/// or SUBROUTINE_UNIFORM interface (GL 4.5 core §7.3.1, table 7.2).
pub(crate) fn subroutine_resources(
    info: Option<&SubroutineInfo>,
    uniforms: bool,
) -> Vec<SubroutineResource> {
    let Some(info) = info else {
        return Vec::new();
    };
    if !uniforms {
        return info
            .functions
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    vec![(gl::NAME_LENGTH, vec![f.name.len() as i32 + 1])],
                )
            })
            .collect();
    }
    info.uniforms
        .iter()
        .map(|u| {
            let compatible: Vec<i32> = u.compatible.iter().map(|&i| i as i32).collect();
            (
                u.name.clone(),
                vec![
                    (gl::NAME_LENGTH, vec![u.name.len() as i32 + 1]),
                    (gl::ARRAY_SIZE, vec![u.elements() as i32]),
                    (
                        gl::NUM_COMPATIBLE_SUBROUTINES,
                        vec![compatible.len() as i32],
                    ),
                    (gl::COMPATIBLE_SUBROUTINES, compatible),
                    (gl::LOCATION, vec![u.location as i32]),
                ],
            )
        })
        .collect()
}

gl_commands! {
    /// glGetSubroutineUniformLocation: -1 for a name that is not an active subroutine
    /// uniform of the stage.
    "glGetSubroutineUniformLocation"
    fn get_subroutine_uniform_location(program: u32, shadertype: u32, name: &str) -> i32
        = try_get_subroutine_uniform_location else -1;
    /// glGetSubroutineIndex: GL_INVALID_INDEX for a name that is not an active subroutine
    /// of the stage.
    "glGetSubroutineIndex"
    fn get_subroutine_index(program: u32, shadertype: u32, name: &str) -> u32
        = try_get_subroutine_index else gl::INVALID_INDEX;
    /// glGetActiveSubroutineUniformiv: NUM_COMPATIBLE_SUBROUTINES, COMPATIBLE_SUBROUTINES,
    /// UNIFORM_SIZE or UNIFORM_NAME_LENGTH of active subroutine uniform `index`.
    "glGetActiveSubroutineUniformiv"
    fn get_active_subroutine_uniformiv(program: u32, shadertype: u32, index: u32, pname: u32)
        -> Vec<i32> = try_get_active_subroutine_uniformiv;
    /// glGetActiveSubroutineUniformName.
    "glGetActiveSubroutineUniformName"
    fn get_active_subroutine_uniform_name(program: u32, shadertype: u32, index: u32) -> String
        = try_get_active_subroutine_uniform_name;
    /// glGetActiveSubroutineName: the name of the subroutine of index `index`.
    "glGetActiveSubroutineName"
    fn get_active_subroutine_name(program: u32, shadertype: u32, index: u32) -> String
        = try_get_active_subroutine_name;
    /// glUniformSubroutinesuiv: the function index of every location of the stage.
    "glUniformSubroutinesuiv"
    fn uniform_subroutinesuiv(shadertype: u32, indices: &[u32]) = try_uniform_subroutinesuiv;
    /// glGetUniformSubroutineuiv: the function index selected at `location`.
    "glGetUniformSubroutineuiv"
    fn get_uniform_subroutineuiv(shadertype: u32, location: i32) -> u32
        = try_get_uniform_subroutineuiv;
}

impl Executable {
    /// What stage `stage` of this program declares about subroutines; `None` when the
    /// program does not have the stage.
    pub(crate) fn subroutine_info(&self, stage: Stage) -> Option<&SubroutineInfo> {
        self.subroutines
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, i)| i)
    }
}

impl Context {
    /// The linked executable of `program` and the subroutine info of `shadertype`'s stage
    /// (`None`: the program has no such stage, so it has no subroutines there). Not linked
    /// is INVALID_OPERATION (GL 4.5 core §7.10 for GetSubroutineUniformLocation; softgl
    /// answers the other queries the same way).
    fn program_subroutines(
        &self,
        program: u32,
        shadertype: u32,
    ) -> GlResult<Option<&SubroutineInfo>> {
        let p = self.program_obj(program)?;
        let stage = shader_stage(shadertype)?;
        let exe = p
            .exe
            .as_ref()
            .filter(|_| p.link_status)
            .ok_or(GlError::InvalidOperation("program is not linked"))?;
        Ok(exe.subroutine_info(stage))
    }

    /// The executable active for `stage` (GL 4.5 core §7.10: the current program when it
    /// has the stage, else with no current program the bound pipeline's program of the
    /// stage) and the stage's subroutine info.
    fn stage_subroutines(&self, stage: Stage) -> Option<(&Executable, &SubroutineInfo)> {
        let name = match self.program {
            Some(p) => p,
            None => self.pipelines.stage_program(stage)?,
        };
        let exe = match self.objs.programs.get(name)? {
            ProgramObject::Program(p) => p.exe.as_ref()?,
            _ => return None,
        };
        Some((exe, exe.subroutine_info(stage)?))
    }

    pub(crate) fn try_get_subroutine_uniform_location(
        &mut self,
        program: u32,
        shadertype: u32,
        name: &str,
    ) -> GlResult<i32> {
        let info = self.program_subroutines(program, shadertype)?;
        Ok(info
            .and_then(|i| i.uniform_location(name))
            .map_or(-1, |l| l as i32))
    }

    pub(crate) fn try_get_subroutine_index(
        &mut self,
        program: u32,
        shadertype: u32,
        name: &str,
    ) -> GlResult<u32> {
        let info = self.program_subroutines(program, shadertype)?;
        Ok(info
            .and_then(|i| i.functions.iter().find(|f| f.name == name))
            .map_or(gl::INVALID_INDEX, |f| f.index))
    }

    pub(crate) fn try_get_active_subroutine_uniformiv(
        &mut self,
        program: u32,
        shadertype: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        let info = self.program_subroutines(program, shadertype)?;
        let u = info
            .and_then(|i| i.uniforms.get(index as usize))
            .ok_or(GlError::InvalidValue(
                "index is not below ACTIVE_SUBROUTINE_UNIFORMS",
            ))?;
        Ok(match pname {
            gl::NUM_COMPATIBLE_SUBROUTINES => vec![u.compatible.len() as i32],
            gl::COMPATIBLE_SUBROUTINES => u.compatible.iter().map(|&i| i as i32).collect(),
            gl::UNIFORM_SIZE => vec![u.elements() as i32],
            gl::UNIFORM_NAME_LENGTH => vec![u.name.len() as i32 + 1],
            _ => return Err(GlError::BadEnum("subroutine uniform parameter", pname)),
        })
    }

    pub(crate) fn try_get_active_subroutine_uniform_name(
        &mut self,
        program: u32,
        shadertype: u32,
        index: u32,
    ) -> GlResult<String> {
        let info = self.program_subroutines(program, shadertype)?;
        info.and_then(|i| i.uniforms.get(index as usize))
            .map(|u| u.name.clone())
            .ok_or(GlError::InvalidValue(
                "index is not below ACTIVE_SUBROUTINE_UNIFORMS",
            ))
    }

    pub(crate) fn try_get_active_subroutine_name(
        &mut self,
        program: u32,
        shadertype: u32,
        index: u32,
    ) -> GlResult<String> {
        let info = self.program_subroutines(program, shadertype)?;
        info.and_then(|i| i.function(index))
            .map(|f| f.name.clone())
            .ok_or(GlError::InvalidValue("index is not an active subroutine"))
    }

    /// GL 4.5 core §7.10: `indices[i]` goes to location i; every location of the stage is
    /// given (INVALID_VALUE otherwise); an index past the stage's subroutines is
    /// INVALID_VALUE, one whose function is not of the location's type INVALID_OPERATION;
    /// values at locations no uniform uses are ignored. Nothing changes on an error.
    pub(crate) fn try_uniform_subroutinesuiv(
        &mut self,
        shadertype: u32,
        indices: &[u32],
    ) -> GlResult<()> {
        let stage = shader_stage(shadertype)?;
        let (exe, info) = self
            .stage_subroutines(stage)
            .ok_or(GlError::InvalidOperation(
                "no program is active for the shader stage",
            ))?;
        if indices.len() != info.locations as usize {
            return Err(GlError::InvalidValue(
                "count is not ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS of the stage",
            ));
        }
        let last = info.functions.iter().map(|f| f.index).max();
        for (loc, &v) in indices.iter().enumerate() {
            let Some((u, _)) = info.uniform_at(loc as u32) else {
                continue;
            };
            if last.is_none_or(|l| v > l) {
                return Err(GlError::InvalidValue(
                    "an index is not an active subroutine of the stage",
                ));
            }
            if !u.compatible.contains(&v) {
                return Err(GlError::InvalidOperation(
                    "a subroutine is not of the type of the uniform at its location",
                ));
            }
        }
        let serial = exe.serial;
        self.subroutine_selection.stages[slot(stage)] = Some((serial, indices.to_vec()));
        Ok(())
    }

    pub(crate) fn try_get_uniform_subroutineuiv(
        &mut self,
        shadertype: u32,
        location: i32,
    ) -> GlResult<u32> {
        let stage = shader_stage(shadertype)?;
        let (exe, info) = self
            .stage_subroutines(stage)
            .ok_or(GlError::InvalidOperation(
                "no program is active for the shader stage",
            ))?;
        if location < 0 || location as u32 >= info.locations {
            return Err(GlError::InvalidValue(
                "location is not below ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS",
            ));
        }
        let values = self.subroutine_selection.values(stage, exe.serial, info);
        Ok(values.get(location as usize).copied().unwrap_or(0))
    }

    /// Writes the selection of every stage the running executable reads into its
    /// default-block `words` (`slots`: `Executable::subroutine_slots`). Each stage's values
    /// come from the program active for that stage, so a pipeline's composition reads
    /// each stage's program's selection.
    pub(crate) fn write_subroutine_selection(
        &self,
        slots: &[SubroutineSlot],
        words: &mut [Vec<u32>; 2],
    ) {
        for s in slots {
            let Some((exe, info)) = self.stage_subroutines(s.stage) else {
                continue;
            };
            let values = self.subroutine_selection.values(s.stage, exe.serial, info);
            let Some(dst) = words[s.block as usize].get_mut(s.offset as usize..) else {
                continue;
            };
            for (d, v) in dst.iter_mut().zip(values.iter().take(s.len as usize)) {
                *d = *v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::api::context::{BackEnd, FrontEnd};
    use crate::api::Context;
    use crate::gl::enums as gl;
    use crate::jit::{Interpreted, ShaderCode};
    use crate::sampler::DescriptorTable;

    /// A fragment shader whose subroutine array is indexed per pixel (lanes of one quad
    /// take different functions) and whose second call's function has an inout parameter.
    const FS: &str = "#version 400
out vec4 c;
subroutine float Chan(inout float acc);
subroutine uniform Chan chans[3];
subroutine uniform Chan last;
subroutine(Chan) float zero(inout float acc) { acc += 0.125; return 0.0; }
subroutine(Chan) float half_(inout float acc) { acc += 0.25; return 0.5; }
subroutine(Chan) float one(inout float acc) { acc += 0.5; if (acc > 0.6) discard; return 1.0; }
void main() {
    float acc = 0.0;
    int k = int(gl_FragCoord.x) % 3;
    float a = chans[k](acc);
    float b = chans[int(gl_FragCoord.y) % 3](acc);
    c = vec4(a, b, last(acc), acc);
}";

    const VS: &str = "#version 400
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }";

    /// The image of the quad for each selection, drawn by a context whose stages run
    /// through `back_end`.
    fn images(back_end: BackEnd, threads: usize) -> Vec<Vec<u8>> {
        let table = Arc::new(DescriptorTable::new());
        let front_end: FrontEnd = Arc::new(crate::glsl::compile);
        let mut c = Context::with_parts(8, 8, threads, table.clone(), table, front_end, back_end);
        let vao = c.gen_vertex_arrays(1)[0];
        c.bind_vertex_array(vao);
        let vbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::ARRAY_BUFFER, vbo);
        let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
        let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
        c.buffer_data(gl::ARRAY_BUFFER, 32, Some(&bytes), gl::STATIC_DRAW);
        c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0);
        c.enable_vertex_attrib_array(0);
        let mut shader = |kind, src: &str| {
            let s = c.create_shader(kind);
            c.shader_source(s, &[src]);
            c.compile_shader(s);
            assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 1);
            s
        };
        let (vs, fs) = (
            shader(gl::VERTEX_SHADER, VS),
            shader(gl::FRAGMENT_SHADER, FS),
        );
        let p = c.create_program();
        c.attach_shader(p, vs);
        c.attach_shader(p, fs);
        c.link_program(p);
        assert_eq!(
            c.get_programiv(p, gl::LINK_STATUS),
            1,
            "{}",
            c.get_program_info_log(p)
        );
        c.use_program(p);
        let mut out = Vec::new();
        for sel in [[0, 1, 2, 0], [2, 2, 1, 1], [1, 0, 2, 2], [2, 1, 0, 1]] {
            c.uniform_subroutinesuiv(gl::FRAGMENT_SHADER, &sel);
            c.clear_color(0.0, 0.0, 0.0, 0.0);
            c.clear(gl::COLOR_BUFFER_BIT);
            c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
            out.push(c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE));
        }
        assert_eq!(c.get_error(), gl::NO_ERROR);
        out
    }

    /// Generated code and the interpreter (the oracle) draw the same images for every
    /// selection, with divergent lanes, discards and inout copies, on 1 and 2 threads.
    #[test]
    fn jit_and_interpreter_agree_on_every_selection() {
        let interp: BackEnd = Arc::new(|m: &crate::ir::Module| {
            Ok(Arc::new(Interpreted::new(Arc::new(m.clone()))) as Arc<dyn ShaderCode>)
        });
        let jit: BackEnd = Arc::new(crate::jit::compile);
        let want = images(interp, 1);
        // Not all black: the selections draw different images.
        assert!(want.windows(2).all(|w| w[0] != w[1]));
        assert_eq!(images(jit.clone(), 1), want);
        assert_eq!(images(jit, 2), want);
    }
}
