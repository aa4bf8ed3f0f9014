//! glGetProgramStageiv (GL 4.5 core §7.10): the subroutine counts of one stage of a
//! program (`ir::subroutine`, `api/subroutine.rs`). A stage the program does not have, or a
//! program that is not linked, answers as a stage without subroutines: every count 0.

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;

gl_commands! {
    /// glGetProgramStageiv (GL 4.5 core §7.10): ACTIVE_SUBROUTINES,
    /// ACTIVE_SUBROUTINE_UNIFORMS, ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS and the two
    /// MAX_LENGTHs (with the null) of `shadertype`'s stage of `program`.
    "glGetProgramStageiv"
    fn get_program_stageiv(program: u32, shadertype: u32, pname: u32) -> i32
        = try_get_program_stageiv;
}

impl Context {
    pub(crate) fn try_get_program_stageiv(
        &mut self,
        program: u32,
        shadertype: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let p = self.program_obj(program)?;
        let stage = crate::api::subroutine::shader_stage(shadertype)?;
        let info = p
            .exe
            .as_ref()
            .filter(|_| p.link_status)
            .and_then(|e| e.subroutine_info(stage));
        let longest = |names: &mut dyn Iterator<Item = &String>| {
            names.map(|n| n.len() as i32 + 1).max().unwrap_or(0)
        };
        Ok(match (pname, info) {
            (
                gl::ACTIVE_SUBROUTINES
                | gl::ACTIVE_SUBROUTINE_UNIFORMS
                | gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS
                | gl::ACTIVE_SUBROUTINE_MAX_LENGTH
                | gl::ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH,
                None,
            ) => 0,
            (gl::ACTIVE_SUBROUTINES, Some(i)) => i.functions.len() as i32,
            (gl::ACTIVE_SUBROUTINE_UNIFORMS, Some(i)) => i.uniforms.len() as i32,
            (gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS, Some(i)) => i.locations as i32,
            (gl::ACTIVE_SUBROUTINE_MAX_LENGTH, Some(i)) => {
                longest(&mut i.functions.iter().map(|f| &f.name))
            }
            (gl::ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH, Some(i)) => {
                longest(&mut i.uniforms.iter().map(|u| &u.name))
            }
            _ => return Err(GlError::BadEnum("program stage parameter", pname)),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    #[test]
    fn counts_are_zero_without_subroutines_and_the_errors_are_the_spec_s() {
        let mut c = Context::with_threads(1, 1, 1);
        let p = c.create_program();
        let s = c.create_shader(gl::VERTEX_SHADER);
        for pname in [
            gl::ACTIVE_SUBROUTINES,
            gl::ACTIVE_SUBROUTINE_UNIFORMS,
            gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS,
            gl::ACTIVE_SUBROUTINE_MAX_LENGTH,
            gl::ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH,
        ] {
            assert_eq!(c.get_program_stageiv(p, gl::FRAGMENT_SHADER, pname), 0);
        }
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.get_program_stageiv(p, gl::TEXTURE_2D, gl::ACTIVE_SUBROUTINES);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.get_program_stageiv(p, gl::VERTEX_SHADER, gl::LINK_STATUS);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.get_program_stageiv(s, gl::VERTEX_SHADER, gl::ACTIVE_SUBROUTINES);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.get_program_stageiv(s + p + 100, gl::VERTEX_SHADER, gl::ACTIVE_SUBROUTINES);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
    }
}
