//! Running a parsed [`Script`] on a [`Context`]: requirement checks, program build, the
//! vertex arrays of `draw rect` and `[vertex data]`, textures and their bindless handles,
//! uniform buffers, commands in order, probes, and the outcome (PASS / FAIL / SKIP) with the
//! final framebuffer.
//!
//! Every command is followed by a glGetError check: a GL error the scene did not ask for
//! fails the scene, naming the line. Execution goes on after the first failure (so the
//! framebuffer written with `-o` shows the whole scene); the first failure is reported.

use std::collections::{BTreeMap, HashMap};

use super::parse::{
    self, AttribTarget, AttribType, Cmp, Command, HandleForm, ParseError, Requirement, Script,
    TexParamValue, TextureKind, UniformValue, Version,
};
use super::pixels;
use softgl::{enums, Context};

/// piglit's default window.
pub const DEFAULT_WIDTH: u32 = 250;
pub const DEFAULT_HEIGHT: u32 = 250;

/// How to run a scene.
#[derive(Copy, Clone, Debug)]
pub struct RunOptions {
    pub width: u32,
    pub height: u32,
    /// Rasterizer threads; `None`: the context's default (`SOFTGL_THREADS` or the cores).
    pub threads: Option<usize>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            threads: None,
        }
    }
}

/// What a scene came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// The first failure: a probe (with what it got), a GL error, a build failure.
    Fail(String),
    /// An unmet requirement.
    Skip(String),
}

impl Outcome {
    /// The process exit code of `softgl run`: 0, 1, or 77 (automake's "skipped").
    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Pass => 0,
            Outcome::Fail(_) => 1,
            Outcome::Skip(_) => 77,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Pass => f.write_str("PASS"),
            Outcome::Fail(why) => write!(f, "FAIL: {why}"),
            Outcome::Skip(why) => write!(f, "SKIP: {why}"),
        }
    }
}

/// A scene's outcome and its final framebuffer.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    pub width: u32,
    pub height: u32,
    /// RGBA8, bottom-up rows (as glReadPixels returns them); empty for skipped scenes.
    pub pixels: Vec<u8>,
}

/// Reads, parses and runs a `.shader_test` file. A file that cannot be read or parsed is a
/// FAIL naming why.
pub fn run_file(path: &std::path::Path, opts: &RunOptions) -> RunResult {
    match std::fs::read_to_string(path) {
        Ok(text) => run_source(&text, opts),
        Err(e) => failed_early(opts, format!("cannot read {}: {e}", path.display())),
    }
}

/// Parses and runs the text of a `.shader_test` file.
pub fn run_source(text: &str, opts: &RunOptions) -> RunResult {
    match parse::parse(text) {
        Ok(script) => run_script(&script, opts),
        // Named as what it is, not as a fault of the file.
        Err(e @ ParseError::Unsupported { .. }) => failed_early(opts, e.to_string()),
        Err(e) => failed_early(opts, format!("parse error: {e}")),
    }
}

/// Runs a parsed scene on a fresh context of the requested size and thread count. A
/// `SIZE W H` requirement sets the window size when `opts` has piglit's default one.
///
/// The context is made as shader_runner's (piglit's framework) would be through softgl's
/// EGL driver: the GL version the requirements ask for (raised to what the GLSL requirement
/// needs), core profile from 3.1 on unless `GL COMPAT` is asked. A version above what softgl
/// reports (honestly, or as `SOFTGL_GL_VERSION_OVERRIDE` claims) is refused by the driver,
/// and the scene is skipped, as piglit skips when it cannot get its context.
pub fn run_script(script: &Script, opts: &RunOptions) -> RunResult {
    let (width, height) = match script.window_size {
        Some(size) if (opts.width, opts.height) == (DEFAULT_WIDTH, DEFAULT_HEIGHT) => size,
        _ => (opts.width, opts.height),
    };
    let attribs = context_attribs(script);
    let made = match opts.threads {
        Some(n) => Context::with_attribs_and_threads(&attribs, None, n),
        None => Context::with_attribs(&attribs, None),
    };
    let mut ctx = match made {
        Ok(mut ctx) => match softgl::Surface::new(width, height, true) {
            Ok(surface) => {
                ctx.set_default_surface(Some(&surface));
                ctx
            }
            Err(e) => {
                return failed_early(opts, format!("cannot make a {width}x{height} window: {e}"))
            }
        },
        Err(e) => return skipped(width, height, format!("no GL context: {e}")),
    };
    run_on(&mut ctx, script, width, height)
}

/// The context attributes shader_runner's framework asks EGL for (piglit's
/// `get_required_config`): the `GL >=`/`>`/`=` version, or 1.0, raised to the GL version
/// of the `GLSL >=` requirement; from 3.1 on a core context unless `GL COMPAT` is asked.
pub fn context_attribs(script: &Script) -> softgl::ContextAttribs {
    let mut gl = (1, 0);
    for r in &script.requirements {
        if let Requirement::Gl(Cmp::Ge | Cmp::Gt | Cmp::Eq, v) = r {
            gl = (v.major, v.minor / 10);
        }
    }
    if let Some(v) = script.glsl_requirement() {
        gl = gl.max(gl_version_for_glsl(v));
    }
    let compat = script.compat_profile;
    softgl::ContextAttribs {
        major: gl.0,
        minor: gl.1,
        profile: if gl >= (3, 1) && !compat {
            softgl::Profile::Core
        } else {
            softgl::Profile::Compatibility
        },
        ..softgl::ContextAttribs::default()
    }
}

/// The GL version a GLSL version needs (piglit's `required_gl_version_from_glsl_version`).
fn gl_version_for_glsl(v: Version) -> (u32, u32) {
    match v.major * 100 + v.minor {
        110 => (2, 0),
        120 => (2, 1),
        130 => (3, 0),
        140 => (3, 1),
        150 => (3, 2),
        n if n >= 330 => (n / 100, (n % 100) / 10),
        _ => (1, 0),
    }
}

fn skipped(width: u32, height: u32, why: String) -> RunResult {
    RunResult {
        outcome: Outcome::Skip(why),
        width,
        height,
        pixels: vec![],
    }
}

fn failed_early(opts: &RunOptions, why: String) -> RunResult {
    RunResult {
        outcome: Outcome::Fail(why),
        width: opts.width,
        height: opts.height,
        pixels: vec![],
    }
}

/// The first requirement `ctx` does not meet, as the SKIP message, or `None`.
pub fn unmet_requirement(ctx: &mut Context, requirements: &[Requirement]) -> Option<String> {
    let gl = ctx
        .get_string(enums::VERSION)
        .and_then(|s| Version::parse_leading(&s));
    let glsl = ctx
        .get_string(enums::SHADING_LANGUAGE_VERSION)
        .and_then(|s| Version::parse_leading(&s));
    let extensions = extension_list(ctx);
    for req in requirements {
        let met = match req {
            Requirement::Gl(cmp, want) => gl.is_some_and(|have| cmp.holds(have, *want)),
            Requirement::Glsl(cmp, want) => glsl.is_some_and(|have| cmp.holds(have, *want)),
            Requirement::Extension { name, present } => {
                extensions.iter().any(|e| e == name) == *present
            }
            Requirement::Limit {
                pname, cmp, value, ..
            } => {
                let have = ctx.get_integerv(*pname).first().copied();
                let _ = ctx.get_error();
                have.is_some_and(|have| cmp.holds_int(have, *value))
            }
            // softgl offers no OpenGL ES context.
            Requirement::Es(_) => false,
        };
        if !met {
            let have = match req {
                Requirement::Gl(..) => gl.map(|v| format!(" (have GL {v})")),
                Requirement::Glsl(..) => glsl.map(|v| format!(" (have GLSL {v})")),
                Requirement::Limit { pname, .. } => {
                    let have = ctx.get_integerv(*pname).first().copied();
                    let _ = ctx.get_error();
                    have.map(|v| format!(" (have {v})"))
                }
                Requirement::Extension { .. } => None,
                Requirement::Es(_) => Some(" (softgl has no OpenGL ES)".to_string()),
            };
            return Some(format!("requires {req}{}", have.unwrap_or_default()));
        }
    }
    None
}

/// The extension names, through glGetStringi (GL 4.5 core §22.2: the core way).
fn extension_list(ctx: &mut Context) -> Vec<String> {
    let n = ctx
        .get_integerv(enums::NUM_EXTENSIONS)
        .first()
        .copied()
        .unwrap_or(0);
    let list = (0..n.max(0) as u32)
        .filter_map(|i| ctx.get_stringi(enums::EXTENSIONS, i))
        .collect();
    // A context without the query must not leave its error to fail the first command.
    let _ = ctx.get_error();
    list
}

/// Runs `script` on `ctx`, whose default framebuffer is `width`×`height`.
pub fn run_on(ctx: &mut Context, script: &Script, width: u32, height: u32) -> RunResult {
    if let Some(why) = unmet_requirement(ctx, &script.requirements) {
        return RunResult {
            outcome: Outcome::Skip(why),
            width,
            height,
            pixels: vec![],
        };
    }
    if let Some(cmd) = script.commands.iter().find_map(|c| match &c.item {
        Command::Unsupported(what) => Some((c.line, what)),
        _ => None,
    }) {
        return RunResult {
            outcome: Outcome::Fail(format!("line {}: unsupported command `{}`", cmd.0, cmd.1)),
            width,
            height,
            pixels: vec![],
        };
    }
    let mut runner = Runner {
        ctx,
        width,
        height,
        program: 0,
        build_log: None,
        compile_failed: false,
        textures: HashMap::new(),
        unit_handles: HashMap::new(),
        ubos: BTreeMap::new(),
        rect_vao: 0,
        rect_vbo: 0,
        data_vao: 0,
        blocks_bound: false,
        framebuffer: None,
        failure: None,
    };
    runner.build_program(script);
    let link_failed = runner.build_log.is_some();
    if link_failed && !script.expects_link_error() {
        let log = runner.build_log.clone().unwrap_or_default();
        runner.fail(0, format!("program failed to build: {}", first_line(&log)));
    }
    if !link_failed {
        runner.setup_vertex_arrays(script);
        // A scene that feeds its blocks with softgl's `ubo`/`block binding` commands keeps
        // its own bindings; any other gets shader_runner's (block i at binding i, zeroed).
        let own_ubos = script.commands.iter().any(|c| {
            matches!(
                c.item,
                Command::Ubo { .. } | Command::UboHandle { .. } | Command::BlockBinding { .. }
            )
        });
        if !own_ubos {
            runner.bind_block_buffers();
        }
    }
    for cmd in &script.commands {
        // With a failed link only the link checks mean anything.
        if link_failed && !matches!(cmd.item, Command::LinkError | Command::LinkSuccess) {
            continue;
        }
        runner.execute(cmd.line, &cmd.item);
        let err = runner.ctx.get_error();
        if err != enums::NO_ERROR {
            runner.fail(cmd.line, format!("GL error 0x{err:04X}"));
        }
    }
    runner.ctx.finish();
    let pixels = runner.read_framebuffer();
    let outcome = match runner.failure.take() {
        Some(why) => Outcome::Fail(why),
        None => Outcome::Pass,
    };
    RunResult {
        outcome,
        width,
        height,
        pixels,
    }
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(empty info log)")
}

struct Runner<'a> {
    ctx: &'a mut Context,
    width: u32,
    height: u32,
    program: u32,
    /// The compile or link log when the program did not build.
    build_log: Option<String>,
    /// Whether the build failed at compile time (as opposed to link time).
    compile_failed: bool,
    /// Texture name bound at each unit by a `texture` command.
    textures: HashMap<u32, u32>,
    /// The handle made from each unit's texture; kept after `delete texture` so scenes can
    /// pass the stale value.
    unit_handles: HashMap<u32, u64>,
    /// Uniform buffer per binding: (buffer name, contents).
    ubos: BTreeMap<u32, (u32, Vec<u8>)>,
    rect_vao: u32,
    rect_vbo: u32,
    data_vao: u32,
    /// Whether the program's uniform blocks got shader_runner's buffers and bindings (on
    /// the first `uniform` command that names a block member).
    blocks_bound: bool,
    /// The read-back framebuffer, valid until the next command that may draw.
    framebuffer: Option<Vec<u8>>,
    failure: Option<String>,
}

impl Runner<'_> {
    fn fail(&mut self, line: usize, why: String) {
        if self.failure.is_none() {
            self.failure = Some(if line == 0 {
                why
            } else {
                format!("line {line}: {why}")
            });
        }
    }

    fn build_program(&mut self, script: &Script) {
        let ctx = &mut *self.ctx;
        let mut log = String::new();
        let mut ok = true;
        let program = ctx.create_program();
        for (stage, source) in script.shader_sources() {
            let which = stage_name(stage);
            let shader = ctx.create_shader(stage);
            if shader == 0 {
                // As shader_runner: a shader that cannot be made fails like one that does
                // not compile.
                ok = false;
                log.push_str(&format!(
                    "{which} shader: glCreateShader gave no shader (softgl has no {which} stage)\n"
                ));
                let _ = ctx.get_error();
                continue;
            }
            ctx.shader_source(shader, &[source.as_str()]);
            ctx.compile_shader(shader);
            if ctx.get_shaderiv(shader, enums::COMPILE_STATUS) == 0 {
                ok = false;
                log.push_str(&format!(
                    "{which} shader: {}",
                    ctx.get_shader_info_log(shader)
                ));
            }
            ctx.attach_shader(program, shader);
            // Flagged for deletion; it lives as long as the program holds it.
            ctx.delete_shader(shader);
        }
        if ok {
            ctx.link_program(program);
            if ctx.get_programiv(program, enums::LINK_STATUS) == 0 {
                ok = false;
                log.push_str(&format!("link: {}", ctx.get_program_info_log(program)));
            }
        }
        if ok {
            ctx.use_program(program);
        } else {
            // Every stage compiled when the link was tried, so a failure before it is a
            // compile failure.
            self.compile_failed = !log.starts_with("link: ");
            self.build_log = Some(log);
        }
        self.program = program;
        // A failed compile or link is reported through the status, not glGetError.
        let _ = ctx.get_error();
    }

    fn setup_vertex_arrays(&mut self, script: &Script) {
        let ctx = &mut *self.ctx;
        let vaos = ctx.gen_vertex_arrays(2);
        let bufs = ctx.gen_buffers(2);
        let (Some(&rect_vao), Some(&data_vao), Some(&rect_vbo), Some(&data_vbo)) =
            (vaos.first(), vaos.get(1), bufs.first(), bufs.get(1))
        else {
            return;
        };
        (self.rect_vao, self.rect_vbo, self.data_vao) = (rect_vao, rect_vbo, data_vao);

        // `draw rect`: piglit_vertex (vec4) then piglit_texcoord (vec2), 24 bytes a vertex.
        ctx.bind_vertex_array(rect_vao);
        ctx.bind_buffer(enums::ARRAY_BUFFER, rect_vbo);
        for (name, size, offset) in [("piglit_vertex", 4, 0usize), ("piglit_texcoord", 2, 16)] {
            let loc = ctx.get_attrib_location(self.program, name);
            if loc >= 0 {
                ctx.enable_vertex_attrib_array(loc as u32);
                ctx.vertex_attrib_pointer(loc as u32, size, enums::FLOAT, false, 24, offset);
            }
        }

        ctx.bind_vertex_array(data_vao);
        if let Some(data) = &script.vertex_data {
            ctx.bind_buffer(enums::ARRAY_BUFFER, data_vbo);
            ctx.buffer_data(
                enums::ARRAY_BUFFER,
                data.bytes.len() as isize,
                Some(&data.bytes),
                enums::STATIC_DRAW,
            );
            for col in &data.columns {
                let loc = match &col.target {
                    AttribTarget::Location(l) => *l as i32,
                    AttribTarget::Name(n) => ctx.get_attrib_location(self.program, n),
                };
                // An attribute the linker dropped as unused has no location: nothing to feed.
                if loc < 0 {
                    continue;
                }
                let (loc, size, stride) = (loc as u32, col.count as i32, data.stride_bytes as i32);
                ctx.enable_vertex_attrib_array(loc);
                match col.ty {
                    AttribType::Float => ctx.vertex_attrib_pointer(
                        loc,
                        size,
                        enums::FLOAT,
                        false,
                        stride,
                        col.offset_bytes,
                    ),
                    AttribType::Int => {
                        ctx.vertex_attrib_i_pointer(loc, size, enums::INT, stride, col.offset_bytes)
                    }
                    AttribType::Uint => ctx.vertex_attrib_i_pointer(
                        loc,
                        size,
                        enums::UNSIGNED_INT,
                        stride,
                        col.offset_bytes,
                    ),
                }
            }
        }
        ctx.bind_vertex_array(0);
    }

    fn read_framebuffer(&mut self) -> Vec<u8> {
        if let Some(fb) = &self.framebuffer {
            return fb.clone();
        }
        let fb = self.ctx.read_pixels(
            0,
            0,
            self.width as i32,
            self.height as i32,
            enums::RGBA,
            enums::UNSIGNED_BYTE,
        );
        self.framebuffer = Some(fb.clone());
        fb
    }

    fn uniform_location(&mut self, line: usize, name: &str) -> Option<i32> {
        // shader_runner: a name starting with a digit is a location.
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            return match name.parse::<i32>() {
                Ok(loc) => Some(loc),
                Err(_) => {
                    self.fail(line, format!("bad uniform location `{name}`"));
                    None
                }
            };
        }
        let loc = self.ctx.get_uniform_location(self.program, name);
        if loc < 0 {
            // piglit fails here too: a missing uniform is a typo or a dropped variable the
            // scene depends on.
            self.fail(line, format!("no active uniform `{name}`"));
            return None;
        }
        Some(loc)
    }

    /// The handle of the texture a `texture` command put at `unit` (made on first use; the
    /// texture's state is frozen from then on, ARB_bindless_texture §8.X).
    fn handle_for_unit(&mut self, line: usize, unit: u32) -> Option<u64> {
        if let Some(&h) = self.unit_handles.get(&unit) {
            return Some(h);
        }
        let Some(&tex) = self.textures.get(&unit) else {
            self.fail(line, format!("no texture at unit {unit}"));
            return None;
        };
        let h = self.ctx.get_texture_handle_arb(tex);
        if h == 0 {
            self.fail(
                line,
                format!("glGetTextureHandleARB gave 0 for the texture at unit {unit}"),
            );
            return None;
        }
        self.unit_handles.insert(unit, h);
        Some(h)
    }

    /// Where a `uniform` command's NAME lives, found as shader_runner finds it: through the
    /// program's reflection (glGetUniformIndices, then glGetActiveUniformsiv's
    /// UNIFORM_BLOCK_INDEX, UNIFORM_OFFSET, ARRAY_STRIDE, MATRIX_STRIDE, IS_ROW_MAJOR). A
    /// trailing `[N]` is taken off the name and added as N array strides. `Some(None)`: not
    /// in a block (set it with glUniform*); `None`: the scene failed (no such uniform).
    ///
    /// The first block member set this way gives every uniform block of the program a
    /// buffer of its UNIFORM_BLOCK_DATA_SIZE, and block i binding point i, as
    /// shader_runner's `setup_ubos` does; the buffers are uploaded before each draw.
    fn block_member(&mut self, line: usize, name: &str) -> Option<Option<BlockMember>> {
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(None);
        }
        let blocks = self
            .ctx
            .get_programiv(self.program, enums::ACTIVE_UNIFORM_BLOCKS);
        let _ = self.ctx.get_error();
        if blocks <= 0 {
            return Some(None);
        }
        let (base, array_index) = split_array_index(name);
        let prog = self.program;
        let index = self.ctx.get_uniform_indices(prog, &[base]);
        let index = match index.first() {
            Some(&i) if i != enums::INVALID_INDEX => i,
            _ => {
                self.fail(line, format!("no active uniform `{name}`"));
                return None;
            }
        };
        let mut query = |pname: u32| -> i32 {
            let v = self.ctx.get_active_uniformsiv(prog, &[index], pname);
            v.first().copied().unwrap_or(-1)
        };
        let block = query(enums::UNIFORM_BLOCK_INDEX);
        if block < 0 {
            return Some(None);
        }
        let mut offset = query(enums::UNIFORM_OFFSET).max(0) as usize;
        let array_stride = query(enums::UNIFORM_ARRAY_STRIDE).max(0) as usize;
        if let Some(i) = array_index {
            offset += array_stride * i;
        }
        let member = BlockMember {
            binding: block as u32,
            offset,
            array_stride,
            matrix_stride: query(enums::UNIFORM_MATRIX_STRIDE).max(0) as usize,
            row_major: query(enums::UNIFORM_IS_ROW_MAJOR) != 0,
        };
        self.bind_block_buffers();
        Some(Some(member))
    }

    /// shader_runner's `setup_ubos`: block i of the program gets binding point i and a
    /// zeroed buffer of its UNIFORM_BLOCK_DATA_SIZE (once per scene).
    fn bind_block_buffers(&mut self) {
        if self.blocks_bound {
            return;
        }
        self.blocks_bound = true;
        let prog = self.program;
        let blocks = self.ctx.get_programiv(prog, enums::ACTIVE_UNIFORM_BLOCKS);
        for i in 0..blocks.max(0) as u32 {
            let size = self
                .ctx
                .get_active_uniform_blockiv(prog, i, enums::UNIFORM_BLOCK_DATA_SIZE)
                .first()
                .copied()
                .unwrap_or(0)
                .max(0) as usize;
            self.ctx.uniform_block_binding(prog, i, i);
            self.write_ubo(i, 0, &vec![0; size]);
        }
        let _ = self.ctx.get_error();
    }

    /// Writes a `uniform` command's values into the block buffer at `member`: element after
    /// element at the array stride, matrices column after column at the matrix stride (the
    /// values are column-major whatever the block's layout, as in shader_runner).
    fn write_block_member(&mut self, member: &BlockMember, value: &UniformValue) {
        let (elem_words, comps) = match value {
            UniformValue::Float { comps, .. }
            | UniformValue::Int { comps, .. }
            | UniformValue::Uint { comps, .. } => (*comps as usize, *comps as usize),
            UniformValue::Matrix { cols, rows, .. } => ((*cols * *rows) as usize, 0),
        };
        let words: Vec<[u8; 4]> = match value {
            UniformValue::Float { values, .. } | UniformValue::Matrix { values, .. } => {
                values.iter().map(|v| v.to_le_bytes()).collect()
            }
            UniformValue::Int { values, .. } => values.iter().map(|v| v.to_le_bytes()).collect(),
            UniformValue::Uint { values, .. } => values.iter().map(|v| v.to_le_bytes()).collect(),
        };
        for (e, elem) in words.chunks(elem_words).enumerate() {
            let base = member.offset + e * member.array_stride;
            if comps > 0 {
                let bytes: Vec<u8> = elem.iter().flatten().copied().collect();
                self.write_ubo(member.binding, base, &bytes);
                continue;
            }
            let UniformValue::Matrix { rows, .. } = value else {
                continue;
            };
            let rows = *rows as usize;
            for (k, word) in elem.iter().enumerate() {
                let (c, r) = (k / rows, k % rows);
                let at = if member.row_major {
                    base + r * member.matrix_stride + c * 4
                } else {
                    base + c * member.matrix_stride + r * 4
                };
                self.write_ubo(member.binding, at, word);
            }
        }
    }

    fn upload_ubos(&mut self) {
        for (&binding, (buffer, data)) in &self.ubos {
            self.ctx.bind_buffer(enums::UNIFORM_BUFFER, *buffer);
            self.ctx.buffer_data(
                enums::UNIFORM_BUFFER,
                data.len() as isize,
                Some(data),
                enums::STATIC_DRAW,
            );
            self.ctx
                .bind_buffer_base(enums::UNIFORM_BUFFER, binding, *buffer);
        }
    }

    fn write_ubo(&mut self, binding: u32, offset: usize, bytes: &[u8]) {
        let ctx = &mut *self.ctx;
        let entry = self.ubos.entry(binding).or_insert_with(|| {
            let buffer = ctx.gen_buffers(1).first().copied().unwrap_or(0);
            (buffer, Vec::new())
        });
        // Sizes round up to 256 bytes so a block a little larger than what the scene wrote
        // still reads zeros from defined memory rather than past the buffer's end.
        let end = offset + bytes.len();
        if entry.1.len() < end {
            entry.1.resize(end.div_ceil(256) * 256, 0);
        }
        entry.1[offset..end].copy_from_slice(bytes);
    }

    fn create_texture(
        &mut self,
        unit: u32,
        width: i32,
        height: i32,
        kind: &TextureKind,
        ifmt: u32,
    ) {
        let ctx = &mut *self.ctx;
        let Some(&tex) = ctx.gen_textures(1).first() else {
            return;
        };
        ctx.active_texture(enums::TEXTURE0 + unit);
        ctx.bind_texture(enums::TEXTURE_2D, tex);
        let t2d = enums::TEXTURE_2D;
        let upload = |ctx: &mut Context, level: i32, w: i32, h: i32, texels: &[pixels::Rgba]| {
            let bytes = pixels::rgba_f32_bytes(texels);
            ctx.tex_image_2d(
                t2d,
                level,
                ifmt as i32,
                w,
                h,
                0,
                enums::RGBA,
                enums::FLOAT,
                Some(&bytes),
            );
        };
        match kind {
            TextureKind::Rgbw => {
                for (level, (w, h)) in pixels::mip_chain(width, height).into_iter().enumerate() {
                    upload(ctx, level as i32, w, h, &pixels::rgbw_image(w, h));
                }
                ctx.tex_parameter_i(
                    t2d,
                    enums::TEXTURE_MIN_FILTER,
                    enums::NEAREST_MIPMAP_NEAREST as i32,
                );
                ctx.tex_parameter_i(t2d, enums::TEXTURE_MAG_FILTER, enums::NEAREST as i32);
            }
            TextureKind::MipLevels => {
                for (level, (w, h)) in pixels::mip_chain(width, height).into_iter().enumerate() {
                    let texels = vec![pixels::miplevel_color(level); (w * h) as usize];
                    upload(ctx, level as i32, w, h, &texels);
                }
                ctx.tex_parameter_i(
                    t2d,
                    enums::TEXTURE_MIN_FILTER,
                    enums::NEAREST_MIPMAP_NEAREST as i32,
                );
                ctx.tex_parameter_i(t2d, enums::TEXTURE_MAG_FILTER, enums::NEAREST as i32);
            }
            TextureKind::Checkerboard { level, colors } => {
                let texels = pixels::checkerboard_image(width, height, colors[0], colors[1]);
                upload(ctx, *level, width, height, &texels);
                ctx.tex_parameter_i(t2d, enums::TEXTURE_MIN_FILTER, enums::NEAREST as i32);
                ctx.tex_parameter_i(t2d, enums::TEXTURE_MAG_FILTER, enums::NEAREST as i32);
                // Only LEVEL exists: make it the whole pyramid so the texture is complete.
                ctx.tex_parameter_i(t2d, enums::TEXTURE_BASE_LEVEL, *level);
                ctx.tex_parameter_i(t2d, enums::TEXTURE_MAX_LEVEL, *level);
            }
        }
        self.textures.insert(unit, tex);
        self.unit_handles.remove(&unit);
    }

    fn set_uniform(&mut self, loc: i32, value: &UniformValue) {
        let ctx = &mut *self.ctx;
        match value {
            UniformValue::Float { comps, values } => match comps {
                1 => ctx.uniform_1fv(loc, values),
                2 => ctx.uniform_2fv(loc, values),
                3 => ctx.uniform_3fv(loc, values),
                _ => ctx.uniform_4fv(loc, values),
            },
            UniformValue::Int { comps, values } => match comps {
                1 => ctx.uniform_1iv(loc, values),
                2 => ctx.uniform_2iv(loc, values),
                3 => ctx.uniform_3iv(loc, values),
                _ => ctx.uniform_4iv(loc, values),
            },
            UniformValue::Uint { comps, values } => match comps {
                1 => ctx.uniform_1uiv(loc, values),
                2 => ctx.uniform_2uiv(loc, values),
                3 => ctx.uniform_3uiv(loc, values),
                _ => ctx.uniform_4uiv(loc, values),
            },
            UniformValue::Matrix { cols, rows, values } => match (cols, rows) {
                (2, 2) => ctx.uniform_matrix_2fv(loc, false, values),
                (3, 3) => ctx.uniform_matrix_3fv(loc, false, values),
                (4, 4) => ctx.uniform_matrix_4fv(loc, false, values),
                (2, 3) => ctx.uniform_matrix_2x3fv(loc, false, values),
                (3, 2) => ctx.uniform_matrix_3x2fv(loc, false, values),
                (2, 4) => ctx.uniform_matrix_2x4fv(loc, false, values),
                (4, 2) => ctx.uniform_matrix_4x2fv(loc, false, values),
                (3, 4) => ctx.uniform_matrix_3x4fv(loc, false, values),
                _ => ctx.uniform_matrix_4x3fv(loc, false, values),
            },
        }
    }

    fn execute(&mut self, line: usize, cmd: &Command) {
        if !matches!(cmd, Command::Probe(_)) {
            self.framebuffer = None;
        }
        match cmd {
            Command::ClearColor([r, g, b, a]) => self.ctx.clear_color(*r, *g, *b, *a),
            Command::ClearDepth(d) => self.ctx.clear_depth(*d),
            Command::Clear => self
                .ctx
                .clear(enums::COLOR_BUFFER_BIT | enums::DEPTH_BUFFER_BIT),
            Command::Enable(cap) => self.ctx.enable(*cap),
            Command::Disable(cap) => self.ctx.disable(*cap),
            Command::DepthFunc(f) => self.ctx.depth_func(*f),
            Command::DepthMask(m) => self.ctx.depth_mask(*m),
            Command::ClearStencil(v) => {
                self.ctx.clear_stencil(*v);
                self.ctx.clear(enums::STENCIL_BUFFER_BIT);
            }
            Command::StencilFunc {
                face,
                func,
                reference,
                mask,
            } => self
                .ctx
                .stencil_func_separate(*face, *func, *reference, *mask),
            Command::StencilOp {
                face,
                sfail,
                dpfail,
                dppass,
            } => self
                .ctx
                .stencil_op_separate(*face, *sfail, *dpfail, *dppass),
            Command::StencilMask { face, mask } => self.ctx.stencil_mask_separate(*face, *mask),
            Command::BlendFunc {
                src_rgb,
                dst_rgb,
                src_alpha,
                dst_alpha,
            } => self
                .ctx
                .blend_func_separate(*src_rgb, *dst_rgb, *src_alpha, *dst_alpha),
            Command::BlendEquation { rgb, alpha } => self.ctx.blend_equation_separate(*rgb, *alpha),
            Command::BlendColor([r, g, b, a]) => self.ctx.blend_color(*r, *g, *b, *a),
            Command::ColorMask([r, g, b, a]) => self.ctx.color_mask(*r, *g, *b, *a),
            Command::Scissor([x, y, w, h]) => self.ctx.scissor(*x, *y, *w, *h),
            Command::Viewport([x, y, w, h]) => self.ctx.viewport(*x, *y, *w, *h),
            Command::CullFace(m) => self.ctx.cull_face(*m),
            Command::FrontFace(m) => self.ctx.front_face(*m),
            Command::ProvokingVertex(m) => self.ctx.provoking_vertex(*m),
            Command::PatchVertices(n) => self.ctx.patch_parameteri(enums::PATCH_VERTICES, *n),
            Command::PatchDefaultLevel { outer, levels } => {
                let pname = if *outer {
                    enums::PATCH_DEFAULT_OUTER_LEVEL
                } else {
                    enums::PATCH_DEFAULT_INNER_LEVEL
                };
                self.ctx.patch_parameterfv(pname, levels)
            }
            Command::DrawRect {
                ortho,
                instances,
                rect,
            } => {
                self.upload_ubos();
                let verts = pixels::rect_vertices(*rect, *ortho, self.width, self.height);
                let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
                self.ctx.bind_vertex_array(self.rect_vao);
                self.ctx.bind_buffer(enums::ARRAY_BUFFER, self.rect_vbo);
                self.ctx.buffer_data(
                    enums::ARRAY_BUFFER,
                    bytes.len() as isize,
                    Some(&bytes),
                    enums::STREAM_DRAW,
                );
                match instances {
                    Some(n) => self.ctx.draw_arrays_instanced(enums::TRIANGLES, 0, 6, *n),
                    None => self.ctx.draw_arrays(enums::TRIANGLES, 0, 6),
                }
            }
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                self.upload_ubos();
                self.ctx.bind_vertex_array(self.data_vao);
                match instances {
                    Some(n) => self.ctx.draw_arrays_instanced(*mode, *first, *count, *n),
                    None => self.ctx.draw_arrays(*mode, *first, *count),
                }
            }
            Command::Uniform { name, value } => match self.block_member(line, name) {
                Some(Some(member)) => self.write_block_member(&member, value),
                Some(None) => {
                    if let Some(loc) = self.uniform_location(line, name) {
                        self.set_uniform(loc, value);
                    }
                }
                None => {}
            },
            Command::UniformHandle { name, unit, form } => {
                let member = match self.block_member(line, name) {
                    Some(m) => m,
                    None => return,
                };
                let Some(h) = self.handle_for_unit(line, *unit) else {
                    return;
                };
                if let Some(member) = member {
                    // A handle in a block is 64 bits, low word first (std140/std430 place
                    // it as a uvec2), whichever form the scene names.
                    self.write_ubo(member.binding, member.offset, &h.to_le_bytes());
                    return;
                }
                let Some(loc) = self.uniform_location(line, name) else {
                    return;
                };
                match form {
                    HandleForm::Handle => self.ctx.uniform_handle_ui64_arb(loc, h),
                    HandleForm::Uvec2 => self.ctx.uniform_2ui(loc, h as u32, (h >> 32) as u32),
                    HandleForm::Uint64 => self.ctx.uniform_1ui64_arb(loc, h),
                }
            }
            Command::Ubo {
                binding,
                offset,
                value,
            } => self.write_ubo(*binding, *offset, &value.to_le_bytes()),
            Command::UboHandle {
                binding,
                offset,
                unit,
            } => {
                // std140/std430 place a handle as a uvec2: low word first (little-endian).
                if let Some(h) = self.handle_for_unit(line, *unit) {
                    self.write_ubo(*binding, *offset, &h.to_le_bytes());
                }
            }
            Command::BlockBinding { name, binding } => {
                let index = self.ctx.get_uniform_block_index(self.program, name);
                if index == enums::INVALID_INDEX {
                    self.fail(line, format!("no active uniform block `{name}`"));
                } else {
                    self.ctx
                        .uniform_block_binding(self.program, index, *binding);
                }
            }
            Command::VertexAttribHandle { name, unit } => {
                let loc = self.ctx.get_attrib_location(self.program, name);
                if loc < 0 {
                    self.fail(line, format!("no active attribute `{name}`"));
                    return;
                }
                if let Some(h) = self.handle_for_unit(line, *unit) {
                    self.ctx.vertex_attrib_l1ui64_arb(loc as u32, h);
                }
            }
            Command::Texture {
                unit,
                width,
                height,
                kind,
                internal_format,
            } => self.create_texture(*unit, *width, *height, kind, *internal_format),
            Command::TexParameter {
                target,
                pname,
                value,
            } => {
                let t = *target;
                match value {
                    TexParamValue::Enum(v) => self.ctx.tex_parameter_i(t, *pname, *v as i32),
                    TexParamValue::Int(v) => self.ctx.tex_parameter_i(t, *pname, *v),
                    TexParamValue::Float(v) => self.ctx.tex_parameter_f(t, *pname, *v),
                    TexParamValue::Color(c) => self.ctx.tex_parameter_fv(t, *pname, c),
                }
            }
            Command::ActiveTexture(unit) => self.ctx.active_texture(enums::TEXTURE0 + unit),
            Command::ActiveUniform {
                name,
                pname,
                expected,
            } => {
                let index = self.ctx.get_uniform_indices(self.program, &[name.as_str()]);
                match index.first() {
                    Some(&i) if i != enums::INVALID_INDEX => {
                        let got = self.ctx.get_active_uniformsiv(self.program, &[i], *pname);
                        if got.first() != Some(expected) {
                            self.fail(
                                line,
                                format!(
                                    "active uniform `{name}`: 0x{pname:04X} is {got:?}, expected {expected}"
                                ),
                            );
                        }
                    }
                    _ => self.fail(line, format!("no active uniform `{name}`")),
                }
            }
            Command::Resident { unit, resident } => {
                if let Some(h) = self.handle_for_unit(line, *unit) {
                    if *resident {
                        self.ctx.make_texture_handle_resident_arb(h);
                    } else {
                        self.ctx.make_texture_handle_non_resident_arb(h);
                    }
                }
            }
            Command::DeleteTexture(unit) => match self.textures.remove(unit) {
                Some(tex) => self.ctx.delete_textures(&[tex]),
                None => self.fail(line, format!("no texture at unit {unit}")),
            },
            Command::Probe(probe) => {
                let fb = self.read_framebuffer();
                if let Err(why) = pixels::check_probe(&fb, self.width, self.height, probe) {
                    self.fail(line, why);
                }
            }
            Command::LinkError => match &self.build_log {
                None => self.fail(
                    line,
                    "the program linked, the scene expects a link error".into(),
                ),
                // A compile failure is not the link error asked for: the shaders are meant to
                // be valid alone (e.g. ARB_bindless_texture's conflicting global layouts are
                // "a link-time error").
                Some(log) if self.compile_failed => {
                    let why = format!(
                        "a shader failed to compile, the scene expects only the link to fail: {}",
                        first_line(log)
                    );
                    self.fail(line, why);
                }
                Some(_) => {}
            },
            Command::Unsupported(_) => {
                unreachable!("run_on reports unsupported commands before running any")
            }
            Command::LinkSuccess => {
                if let Some(log) = self.build_log.clone() {
                    self.fail(
                        line,
                        format!("the program failed to build: {}", first_line(&log)),
                    );
                }
            }
        }
    }
}

/// Where a uniform block member's bytes go in the block's buffer.
struct BlockMember {
    /// The binding point of its block (= the block's index, as shader_runner binds them).
    binding: u32,
    offset: usize,
    array_stride: usize,
    matrix_stride: usize,
    row_major: bool,
}

/// `name[N]` → (`name`, Some(N)); any other name → (name, None). As in shader_runner, only
/// a trailing index is split off (`s[0].tex` is looked up whole).
fn split_array_index(name: &str) -> (&str, Option<usize>) {
    if let Some(open) = name.strip_suffix(']').and_then(|n| n.rfind('[')) {
        if let Ok(i) = name[open + 1..name.len() - 1].parse::<usize>() {
            return (&name[..open], Some(i));
        }
    }
    (name, None)
}

/// The stage's word in messages.
fn stage_name(stage: u32) -> &'static str {
    match stage {
        enums::VERTEX_SHADER => "vertex",
        enums::TESS_CONTROL_SHADER => "tessellation control",
        enums::TESS_EVALUATION_SHADER => "tessellation evaluation",
        enums::GEOMETRY_SHADER => "geometry",
        enums::FRAGMENT_SHADER => "fragment",
        enums::COMPUTE_SHADER => "compute",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribs_for(require: &str) -> (u32, u32, softgl::Profile) {
        let script = parse::parse(&format!("[require]\n{require}\n")).unwrap();
        let a = context_attribs(&script);
        (a.major, a.minor, a.profile)
    }

    /// The context shader_runner's framework asks for (piglit's `get_required_config`):
    /// the GL requirement raised to the GLSL requirement's GL version, core from 3.1 on
    /// unless `GL COMPAT` is asked.
    #[test]
    fn context_follows_requirements() {
        use softgl::Profile::{Compatibility, Core};
        assert_eq!(attribs_for(""), (1, 0, Compatibility));
        assert_eq!(attribs_for("GLSL >= 1.50"), (3, 2, Core));
        assert_eq!(attribs_for("GLSL >= 1.20"), (2, 1, Compatibility));
        assert_eq!(attribs_for("GL >= 3.3\nGLSL >= 1.50"), (3, 3, Core));
        assert_eq!(attribs_for("GL >= 2.0\nGLSL >= 4.50"), (4, 5, Core));
        assert_eq!(
            attribs_for("GL COMPAT >= 3.2\nGLSL >= 1.50"),
            (3, 2, Compatibility)
        );
        assert_eq!(attribs_for("GL < 3.0"), (1, 0, Compatibility));
    }

    #[test]
    fn array_index_split() {
        assert_eq!(split_array_index("a[3]"), ("a", Some(3)));
        assert_eq!(split_array_index("b.c[12]"), ("b.c", Some(12)));
        assert_eq!(split_array_index("s[0].tex"), ("s[0].tex", None));
        assert_eq!(split_array_index("plain"), ("plain", None));
    }
}
