//! GL entry points of program pipeline objects and separate shader objects (GL 4.5 core
//! §7.4, ARB_separate_shader_objects).

use super::*;

pub unsafe fn GenProgramPipelines(ctx: &mut Context, n: GLsizei, pipelines: *mut GLuint) {
    // SAFETY: `pipelines` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, pipelines, |c, n| c.gen_program_pipelines(n)) }
}

pub unsafe fn CreateProgramPipelines(ctx: &mut Context, n: GLsizei, pipelines: *mut GLuint) {
    // SAFETY: `pipelines` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, pipelines, |c, n| c.create_program_pipelines(n)) }
}

pub unsafe fn DeleteProgramPipelines(ctx: &mut Context, n: GLsizei, pipelines: *const GLuint) {
    // SAFETY: `pipelines` is readable for `n` names (the caller's contract).
    unsafe { delete_with(ctx, n, pipelines, |c, s| c.delete_program_pipelines(s)) }
}

pub fn IsProgramPipeline(ctx: &mut Context, pipeline: GLuint) -> GLboolean {
    gl_bool(ctx.is_program_pipeline(pipeline))
}

pub fn BindProgramPipeline(ctx: &mut Context, pipeline: GLuint) {
    ctx.bind_program_pipeline(pipeline)
}

pub fn UseProgramStages(ctx: &mut Context, pipeline: GLuint, stages: GLbitfield, program: GLuint) {
    ctx.use_program_stages(pipeline, stages, program)
}

pub fn ActiveShaderProgram(ctx: &mut Context, pipeline: GLuint, program: GLuint) {
    ctx.active_shader_program(pipeline, program)
}

pub unsafe fn GetProgramPipelineiv(
    ctx: &mut Context,
    pipeline: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let before = ctx.errors_recorded();
    let v = ctx.get_program_pipelineiv(pipeline, pname);
    if ctx.errors_recorded() == before {
        // SAFETY: `params` is null or writable for one value.
        unsafe { write_one(params, v) }
    }
}

pub fn ValidateProgramPipeline(ctx: &mut Context, pipeline: GLuint) {
    ctx.validate_program_pipeline(pipeline)
}

pub unsafe fn GetProgramPipelineInfoLog(
    ctx: &mut Context,
    pipeline: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    let s = ctx.get_program_pipeline_info_log(pipeline);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, info_log) }
}

pub unsafe fn CreateShaderProgramv(
    ctx: &mut Context,
    r#type: GLenum,
    count: GLsizei,
    strings: *const *const GLchar,
) -> GLuint {
    // SAFETY: `strings` holds `count` string pointers (GL 4.5 core §7.3).
    let ptrs = match unsafe { slice(strings, count, "negative count") } {
        Ok(p) => p,
        Err(e) => {
            fail(ctx, e);
            return 0;
        }
    };
    let mut sources = Vec::with_capacity(ptrs.len());
    for &p in ptrs {
        if p.is_null() {
            fail(ctx, GlError::InvalidValue("null source string"));
            return 0;
        }
        // SAFETY: each string is NUL-terminated (glCreateShaderProgramv has no lengths).
        sources.push(unsafe { c_string(p, -1) });
    }
    let refs: Vec<&str> = sources.iter().map(String::as_str).collect();
    ctx.create_shader_programv(r#type, &refs)
}
