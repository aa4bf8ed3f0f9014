//! Shader and program state commands that softgl answers without a feature behind them
//! (GL 4.5 core §7.2, §7.5, §7.9, §21.5): glHint's stored hints, glReleaseShaderCompiler,
//! glGetShaderPrecisionFormat, binaries (glShaderBinary, glProgramBinary,
//! glGetProgramBinary: no binary formats, NUM_*_BINARY_FORMATS 0), glProgramParameteri,
//! and glGetUniformdv / glGetnUniformdv (the float getters' values as doubles).

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::ProgramObjectName;
use crate::api::program::ProgramObject;
use crate::gl::enums as gl;

/// glProgramParameteri's state of one program (GL 4.5 core table 23.32).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ProgramParams {
    pub separable: bool,
    pub binary_retrievable: bool,
}

impl ProgramParams {
    /// glGetProgramiv of PROGRAM_SEPARABLE, PROGRAM_BINARY_RETRIEVABLE_HINT and
    /// PROGRAM_BINARY_LENGTH (0: there is no binary format to retrieve).
    pub fn value(&self, pname: u32) -> i32 {
        match pname {
            gl::PROGRAM_SEPARABLE => self.separable as i32,
            gl::PROGRAM_BINARY_RETRIEVABLE_HINT => self.binary_retrievable as i32,
            _ => 0,
        }
    }
}

/// The hints of glHint (GL 4.5 core §21.5, table 23.74), each DONT_CARE at first.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hints {
    /// LINE_SMOOTH, POLYGON_SMOOTH, TEXTURE_COMPRESSION, FRAGMENT_SHADER_DERIVATIVE,
    /// GENERATE_MIPMAP, in `HINT_TARGETS` order.
    modes: [u32; 5],
}

/// The targets glHint takes. GENERATE_MIPMAP_HINT is a compatibility-profile target that
/// core programs written against older drivers still set; it is stored like the others.
const HINT_TARGETS: [u32; 5] = [
    gl::LINE_SMOOTH_HINT,
    gl::POLYGON_SMOOTH_HINT,
    gl::TEXTURE_COMPRESSION_HINT,
    gl::FRAGMENT_SHADER_DERIVATIVE_HINT,
    gl::GENERATE_MIPMAP_HINT,
];

impl Default for Hints {
    fn default() -> Self {
        Hints {
            modes: [gl::DONT_CARE; 5],
        }
    }
}

impl Hints {
    /// The glGet value of a hint target; None for other pnames.
    pub fn value(&self, pname: u32) -> Option<i32> {
        let i = HINT_TARGETS.iter().position(|&t| t == pname)?;
        Some(self.modes[i] as i32)
    }
}

gl_commands! {
    /// glHint: stored and queried; no hint changes what softgl draws (derivatives and
    /// compression are exact either way).
    "glHint" fn hint(target: u32, mode: u32) = try_hint;
    /// glReleaseShaderCompiler: nothing to release.
    "glReleaseShaderCompiler" fn release_shader_compiler() = try_release_shader_compiler;
    /// glGetShaderPrecisionFormat: `(range, precision)` of IEEE floats and 32-bit integers.
    "glGetShaderPrecisionFormat"
    fn get_shader_precision_format(shader_type: u32, precision_type: u32) -> ([i32; 2], i32)
        = try_get_shader_precision_format;
    /// glShaderBinary: softgl has no shader binary formats (NUM_SHADER_BINARY_FORMATS 0).
    "glShaderBinary"
    fn shader_binary(shaders: &[u32], format: u32, binary: &[u8]) = try_shader_binary;
    /// glProgramBinary: no program binary formats (NUM_PROGRAM_BINARY_FORMATS 0).
    "glProgramBinary"
    fn program_binary(program: u32, format: u32, binary: &[u8]) = try_program_binary;
    /// glGetProgramBinary: the binary is 0 bytes long (returns its length).
    "glGetProgramBinary"
    fn get_program_binary(program: u32, buf_size: i32) -> i32 = try_get_program_binary;
    /// glProgramParameteri.
    "glProgramParameteri"
    fn program_parameteri(program: u32, pname: u32, value: i32) = try_program_parameteri;
    /// glGetUniformdv.
    "glGetUniformdv"
    fn get_uniformdv(program: u32, location: i32) -> Vec<f64> = try_get_uniformdv;
    /// glGetnUniformdv: `buf_size` bytes, 8 per value (KHR_robustness).
    "glGetnUniformdv"
    fn getn_uniformdv(program: u32, location: i32, buf_size: i32) -> Vec<f64>
        = try_getn_uniformdv;
}

impl Context {
    pub(crate) fn try_hint(&mut self, target: u32, mode: u32) -> GlResult<()> {
        let i = HINT_TARGETS
            .iter()
            .position(|&t| t == target)
            .ok_or(GlError::BadEnum("hint target", target))?;
        if !matches!(mode, gl::FASTEST | gl::NICEST | gl::DONT_CARE) {
            return Err(GlError::BadEnum("hint mode", mode));
        }
        self.hints.modes[i] = mode;
        Ok(())
    }

    pub(crate) fn try_release_shader_compiler(&mut self) -> GlResult<()> {
        Ok(())
    }

    pub(crate) fn try_get_shader_precision_format(
        &mut self,
        shader_type: u32,
        precision_type: u32,
    ) -> GlResult<([i32; 2], i32)> {
        if !matches!(shader_type, gl::VERTEX_SHADER | gl::FRAGMENT_SHADER) {
            return Err(GlError::BadEnum("shader type", shader_type));
        }
        // Every precision is highp: f32 (exponents ±127, 23 fraction bits) and i32
        // (−2^31..2^31 − 1), as Mesa reports for desktop GL.
        match precision_type {
            gl::LOW_FLOAT | gl::MEDIUM_FLOAT | gl::HIGH_FLOAT => Ok(([127, 127], 23)),
            gl::LOW_INT | gl::MEDIUM_INT | gl::HIGH_INT => Ok(([31, 30], 0)),
            _ => Err(GlError::BadEnum("precision type", precision_type)),
        }
    }

    pub(crate) fn try_shader_binary(
        &mut self,
        shaders: &[u32],
        format: u32,
        _binary: &[u8],
    ) -> GlResult<()> {
        for &s in shaders {
            match self.objs.programs.get(ProgramObjectName(s)) {
                Some(ProgramObject::Shader(_)) => {}
                Some(_) => {
                    return Err(GlError::InvalidOperation("name is a program, not a shader"))
                }
                None => return Err(GlError::InvalidValue("not a shader name")),
            }
        }
        Err(GlError::BadEnum(
            "shader binary format (softgl has none)",
            format,
        ))
    }

    pub(crate) fn try_program_binary(
        &mut self,
        program: u32,
        format: u32,
        _binary: &[u8],
    ) -> GlResult<()> {
        self.program_obj(program)?;
        Err(GlError::BadEnum(
            "program binary format (softgl has none)",
            format,
        ))
    }

    pub(crate) fn try_get_program_binary(&mut self, program: u32, buf_size: i32) -> GlResult<i32> {
        if buf_size < 0 {
            return Err(GlError::InvalidValue("negative bufSize"));
        }
        if !self.program_obj(program)?.link_status {
            return Err(GlError::InvalidOperation("program is not linked"));
        }
        Ok(0)
    }

    pub(crate) fn try_program_parameteri(
        &mut self,
        program: u32,
        pname: u32,
        value: i32,
    ) -> GlResult<()> {
        self.program_obj(program)?;
        if !matches!(
            pname,
            gl::PROGRAM_SEPARABLE | gl::PROGRAM_BINARY_RETRIEVABLE_HINT
        ) {
            return Err(GlError::BadEnum("program parameter", pname));
        }
        if !matches!(value, 0 | 1) {
            return Err(GlError::InvalidValue("value must be GL_TRUE or GL_FALSE"));
        }
        let Some(ProgramObject::Program(p)) =
            self.objs.programs.get_mut(ProgramObjectName(program))
        else {
            return Err(GlError::InvalidValue("not a program name"));
        };
        let params = &mut p.params;
        match pname {
            gl::PROGRAM_SEPARABLE => params.separable = value == 1,
            _ => params.binary_retrievable = value == 1,
        }
        Ok(())
    }

    pub(crate) fn try_get_uniformdv(&mut self, program: u32, location: i32) -> GlResult<Vec<f64>> {
        if let Some(d) = self.double_uniform(program, location)? {
            return Ok(d);
        }
        Ok(self
            .try_get_uniformfv(program, location)?
            .into_iter()
            .map(f64::from)
            .collect())
    }

    pub(crate) fn try_getn_uniformdv(
        &mut self,
        program: u32,
        location: i32,
        buf_size: i32,
    ) -> GlResult<Vec<f64>> {
        if buf_size < 0 {
            return Err(GlError::InvalidValue("negative bufSize"));
        }
        let v = self.try_get_uniformdv(program, location)?;
        if v.len() * 8 > buf_size as usize {
            return Err(GlError::InvalidOperation(
                "the uniform's values do not fit in bufSize bytes",
            ));
        }
        Ok(v)
    }
}
