//! GL entry points of shaders, programs and their introspection (GL 4.5 core chapter 7).

use super::*;

pub fn CreateShader(ctx: &mut Context, r#type: GLenum) -> GLuint {
    ctx.create_shader(r#type)
}

pub unsafe fn ShaderSource(
    ctx: &mut Context,
    shader: GLuint,
    count: GLsizei,
    string: *const *const GLchar,
    length: *const GLint,
) {
    // SAFETY: `string` holds `count` string pointers (GL 4.5 core §7.1).
    let ptrs = match unsafe { slice(string, count, "negative count") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let lens = if length.is_null() {
        None
    } else {
        // SAFETY: a non-null `length` holds `count` lengths (GL 4.5 core §7.1).
        Some(unsafe { std::slice::from_raw_parts(length, ptrs.len()) })
    };
    let mut strings = Vec::with_capacity(ptrs.len());
    for (i, &p) in ptrs.iter().enumerate() {
        if p.is_null() {
            return fail(ctx, GlError::InvalidValue("null source string"));
        }
        let len = lens.map_or(-1, |l| l[i]);
        // SAFETY: string `i` holds `len` bytes, or is NUL-terminated when `len` < 0.
        strings.push(unsafe { c_string(p, len) });
    }
    let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
    ctx.shader_source(shader, &refs)
}

pub unsafe fn GetShaderSource(
    ctx: &mut Context,
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    source: *mut GLchar,
) {
    let s = ctx.get_shader_source(shader);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, source) }
}

pub fn CompileShader(ctx: &mut Context, shader: GLuint) {
    ctx.compile_shader(shader)
}

pub fn DeleteShader(ctx: &mut Context, shader: GLuint) {
    ctx.delete_shader(shader)
}

pub fn IsShader(ctx: &mut Context, shader: GLuint) -> GLboolean {
    gl_bool(ctx.is_shader(shader))
}

pub unsafe fn GetShaderiv(ctx: &mut Context, shader: GLuint, pname: GLenum, params: *mut GLint) {
    let v = ctx.get_shaderiv(shader, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetShaderInfoLog(
    ctx: &mut Context,
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    let s = ctx.get_shader_info_log(shader);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, info_log) }
}

pub fn CreateProgram(ctx: &mut Context) -> GLuint {
    ctx.create_program()
}

pub fn IsProgram(ctx: &mut Context, program: GLuint) -> GLboolean {
    gl_bool(ctx.is_program(program))
}

pub fn AttachShader(ctx: &mut Context, program: GLuint, shader: GLuint) {
    ctx.attach_shader(program, shader)
}

pub fn DetachShader(ctx: &mut Context, program: GLuint, shader: GLuint) {
    ctx.detach_shader(program, shader)
}

pub unsafe fn GetAttachedShaders(
    ctx: &mut Context,
    program: GLuint,
    max_count: GLsizei,
    count: *mut GLsizei,
    shaders: *mut GLuint,
) {
    if max_count < 0 {
        return fail(ctx, GlError::InvalidValue("negative maxCount"));
    }
    let v = ctx.get_attached_shaders(program);
    let n = if shaders.is_null() {
        0
    } else {
        v.len().min(max_count as usize)
    };
    // SAFETY: `shaders` holds `max_count` ≥ n names; `count` is null or writable.
    unsafe {
        write_out(shaders, &v[..n]);
        write_one(count, n as GLsizei);
    }
}

pub fn DeleteProgram(ctx: &mut Context, program: GLuint) {
    ctx.delete_program(program)
}

pub unsafe fn BindAttribLocation(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    name: *const GLchar,
) {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.bind_attrib_location(program, index, &n),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn BindFragDataLocation(
    ctx: &mut Context,
    program: GLuint,
    color: GLuint,
    name: *const GLchar,
) {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.bind_frag_data_location(program, color, &n),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn BindFragDataLocationIndexed(
    ctx: &mut Context,
    program: GLuint,
    color: GLuint,
    index: GLuint,
    name: *const GLchar,
) {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.bind_frag_data_location_indexed(program, color, index, &n),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetFragDataLocation(
    ctx: &mut Context,
    program: GLuint,
    name: *const GLchar,
) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_frag_data_location(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetFragDataIndex(ctx: &mut Context, program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_frag_data_index(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub fn LinkProgram(ctx: &mut Context, program: GLuint) {
    ctx.link_program(program)
}

pub fn UseProgram(ctx: &mut Context, program: GLuint) {
    ctx.use_program(program)
}

pub fn ValidateProgram(ctx: &mut Context, program: GLuint) {
    ctx.validate_program(program)
}

pub unsafe fn GetProgramiv(ctx: &mut Context, program: GLuint, pname: GLenum, params: *mut GLint) {
    if pname == gl::COMPUTE_WORK_GROUP_SIZE {
        let before = ctx.errors_recorded();
        let v = ctx.compute_work_group_size(program);
        if ctx.errors_recorded() == before {
            // SAFETY: `params` is null or writable for the three values this name has.
            unsafe { write_out(params, &v) }
        }
        return;
    }
    let v = ctx.get_programiv(program, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetProgramInfoLog(
    ctx: &mut Context,
    program: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    let s = ctx.get_program_info_log(program);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, info_log) }
}

pub unsafe fn GetUniformLocation(ctx: &mut Context, program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_uniform_location(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetAttribLocation(ctx: &mut Context, program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_attrib_location(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

/// GetActiveUniform / GetActiveAttrib's outputs.
///
/// # Safety
/// As those commands: each out-pointer null or writable, `name` for `buf_size` bytes.
unsafe fn active_out(
    ctx: &mut Context,
    (size_v, ty_v, name_v): (i32, u32, String),
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    if buf_size < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    if ty_v == 0 {
        // The Context recorded why (no such program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe {
        write_one(size, size_v);
        write_one(r#type, ty_v);
        return_string(ctx, &name_v, buf_size, length, name);
    }
}

pub unsafe fn GetActiveUniform(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    let v = ctx.get_active_uniform(program, index);
    // SAFETY: forwarded.
    unsafe { active_out(ctx, v, buf_size, length, size, r#type, name) }
}

pub unsafe fn GetActiveAttrib(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    let v = ctx.get_active_attrib(program, index);
    // SAFETY: forwarded.
    unsafe { active_out(ctx, v, buf_size, length, size, r#type, name) }
}

pub unsafe fn GetUniformBlockIndex(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_name: *const GLchar,
) -> GLuint {
    // SAFETY: the name is null or NUL-terminated.
    match unsafe { name_arg(uniform_block_name) } {
        Ok(n) => ctx.get_uniform_block_index(program, &n),
        Err(e) => {
            fail(ctx, e);
            gl::INVALID_INDEX
        }
    }
}

pub fn UniformBlockBinding(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    uniform_block_binding: GLuint,
) {
    ctx.uniform_block_binding(program, uniform_block_index, uniform_block_binding)
}

pub unsafe fn GetActiveUniformBlockiv(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_active_uniform_blockiv(program, uniform_block_index, pname);
    // SAFETY: `params` is null or writable for the values `pname` returns (one, or
    // UNIFORM_BLOCK_ACTIVE_UNIFORMS of them for the indices).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetActiveAtomicCounterBufferiv(
    ctx: &mut Context,
    program: GLuint,
    buffer_index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_active_atomic_counter_bufferiv(program, buffer_index, pname);
    // SAFETY: `params` is null or writable for the values `pname` returns (one, or
    // ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS of them for the indices).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetActiveUniformBlockName(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    uniform_block_name: *mut GLchar,
) {
    let s = ctx.get_active_uniform_block_name(program, uniform_block_index);
    if s.is_empty() {
        // Block names are never empty: the Context recorded why (no program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, uniform_block_name) }
}

pub unsafe fn GetActiveUniformName(
    ctx: &mut Context,
    program: GLuint,
    uniform_index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    uniform_name: *mut GLchar,
) {
    let (_, ty, s) = ctx.get_active_uniform(program, uniform_index);
    if ty == 0 {
        // The Context recorded why (no such program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, uniform_name) }
}

pub unsafe fn GetUniformIndices(
    ctx: &mut Context,
    program: GLuint,
    uniform_count: GLsizei,
    uniform_names: *const *const GLchar,
    uniform_indices: *mut GLuint,
) {
    // SAFETY: `uniform_names` holds `uniform_count` string pointers (GL 4.5 core §7.3.1.1).
    let ptrs = match unsafe { slice(uniform_names, uniform_count, "negative uniformCount") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let mut names = Vec::with_capacity(ptrs.len());
    for &p in ptrs {
        // A null name names no uniform: INVALID_INDEX for it, as glGetProgramResourceIndex
        // answers (piglit's getprogramresourceindex compares the two); "" is no uniform.
        if p.is_null() {
            names.push(String::new());
            continue;
        }
        // SAFETY: each name is non-null and NUL-terminated.
        match unsafe { name_arg(p) } {
            Ok(n) => names.push(n),
            Err(e) => return fail(ctx, e),
        }
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let v = ctx.get_uniform_indices(program, &refs);
    // SAFETY: `uniform_indices` is writable for `uniform_count` values; `v` is empty on error.
    unsafe { write_out(uniform_indices, &v) }
}

pub unsafe fn GetActiveUniformsiv(
    ctx: &mut Context,
    program: GLuint,
    uniform_count: GLsizei,
    uniform_indices: *const GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `uniform_indices` holds `uniform_count` indices.
    let idx = match unsafe { slice(uniform_indices, uniform_count, "negative uniformCount") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let v = ctx.get_active_uniformsiv(program, idx, pname);
    // SAFETY: `params` is writable for `uniform_count` values; `v` is empty on error.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformfv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLfloat,
) {
    let v = ctx.get_uniformfv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLint,
) {
    let v = ctx.get_uniformiv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformuiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLuint,
) {
    let v = ctx.get_uniformuiv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetProgramInterfaceiv(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_program_interfaceiv(program, program_interface, pname);
    // SAFETY: `params` is null or writable for one value; `v` is empty on error.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetProgramResourceIndex(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLuint {
    // A null name names no resource: INVALID_INDEX without an error (GL 4.5 core
    // §7.3.1.1 lists none; piglit's getprogramresourceindex, as Mesa), after the program
    // and interface checks an empty name goes through.
    if name.is_null() {
        return ctx.get_program_resource_index(program, program_interface, "");
    }
    // SAFETY: the name is non-null and NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_program_resource_index(program, program_interface, &n),
        Err(e) => {
            fail(ctx, e);
            gl::INVALID_INDEX
        }
    }
}

pub unsafe fn GetProgramResourceName(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: forwarded.
    unsafe {
        return_name(ctx, buf_size, length, name, |c| {
            c.get_program_resource_name(program, program_interface, index)
        })
    }
}

pub unsafe fn GetProgramResourceiv(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    index: GLuint,
    prop_count: GLsizei,
    props: *const GLenum,
    count: GLsizei,
    length: *mut GLsizei,
    params: *mut GLint,
) {
    if prop_count <= 0 {
        return fail(ctx, GlError::InvalidValue("propCount is not positive"));
    }
    if count < 0 {
        return fail(ctx, GlError::InvalidValue("negative count"));
    }
    // SAFETY: `props` holds `prop_count` property names (GL 4.5 core §7.3.1.1).
    let props = match unsafe { slice(props, prop_count, "propCount") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let v = ctx.get_program_resourceiv(program, program_interface, index, props);
    if v.is_empty() {
        return;
    }
    let n = v.len().min(count as usize);
    // SAFETY: `params` is writable for `count` values, and `length` is null or writable.
    unsafe {
        write_out(params, &v[..n]);
        write_out(length, &[n as GLsizei]);
    }
}

pub unsafe fn GetProgramResourceLocation(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: the name is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_program_resource_location(program, program_interface, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetProgramResourceLocationIndex(
    ctx: &mut Context,
    program: GLuint,
    program_interface: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: the name is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_program_resource_location_index(program, program_interface, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetProgramStageiv(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    pname: GLenum,
    values: *mut GLint,
) {
    // SAFETY: `values` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, values, |c| {
            c.get_program_stageiv(program, shadertype, pname)
        })
    }
}
