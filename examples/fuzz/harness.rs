//! Fuzz targets that run on stable Rust (issue #11 item 6): mutated GLSL through the
//! preprocessor, parser, compiler, IR verifier, linker, JIT and one draw; and random
//! sequences of GL commands through the Rust API. Each case is a pure function of its seed,
//! so a failure found by a long run (`tools/fuzz.sh`) is replayed by its seed alone.
//! `tests/fuzz.rs` runs a bounded number of cases in `cargo test`; `examples/fuzz/main.rs`
//! runs many, one process per batch.
//!
//! A case fails when softgl panics (even a panic the dispatcher contains as
//! GL_OUT_OF_MEMORY is a bug), when the IR a successful compile emits is malformed, or
//! when the process dies or hangs (seen by the driver script, not here).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use softgl::glsl::verify::verify_module;
use softgl::ir::Stage;
use softgl::{enums as gl, Context, ContextAttribs, Surface};

/// xorshift64*: small, fast, and the same sequence everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so neighbouring seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

// ---- panics seen anywhere in softgl ---------------------------------------------------

static PANICS: AtomicUsize = AtomicUsize::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Counts every panic, including the ones softgl's dispatcher contains, and keeps the
/// last message; the default hook's printing is kept out of the way.
fn install_panic_counter() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let what = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = format!("{what} at {at}");
            }
        }));
    });
}

/// Runs `body`; `Err` with the panic's message if softgl panicked anywhere inside.
fn without_panics(body: impl FnOnce()) -> Result<(), String> {
    install_panic_counter();
    let before = PANICS.load(Ordering::SeqCst);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
    let after = PANICS.load(Ordering::SeqCst);
    if caught.is_err() || after != before {
        let last = LAST_PANIC.lock().map(|s| s.clone()).unwrap_or_default();
        return Err(format!("panic: {last}"));
    }
    Ok(())
}

// ---- the GLSL target ------------------------------------------------------------------

/// A shader of the corpus: its stage and source.
#[derive(Clone)]
pub struct Seed {
    pub stage: Stage,
    pub source: String,
    /// Whether the unmutated shader compiles (most mutations start from one that does).
    pub compiles: bool,
}

/// The shaders of `conformance/` (the GLSL corpus and every `.shader_test` scene): what
/// mutations start from.
pub fn corpus(root: &Path) -> Vec<Seed> {
    let mut out = Vec::new();
    let mut files: Vec<_> = ["conformance/glsl", "conformance/scenes"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        match path.extension().and_then(|e| e.to_str()) {
            Some("vert") => out.push(Seed {
                stage: Stage::Vertex,
                source: text,
                compiles: false,
            }),
            Some("frag") => out.push(Seed {
                stage: Stage::Fragment,
                source: text,
                compiles: false,
            }),
            Some("shader_test") => out.extend(shader_test_sections(&text)),
            _ => {}
        }
    }
    for seed in &mut out {
        seed.compiles = softgl::glsl::compile(seed.stage, &seed.source).compiled;
    }
    out
}

/// The `[vertex shader]` and `[fragment shader]` sections of a `.shader_test` file.
fn shader_test_sections(text: &str) -> Vec<Seed> {
    let mut out = Vec::new();
    let mut current: Option<Seed> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            out.extend(current.take());
            current = match line.trim() {
                "[vertex shader]" => Some(Seed {
                    stage: Stage::Vertex,
                    source: String::new(),
                    compiles: false,
                }),
                "[fragment shader]" => Some(Seed {
                    stage: Stage::Fragment,
                    source: String::new(),
                    compiles: false,
                }),
                _ => None,
            };
        } else if let Some(s) = &mut current {
            s.source.push_str(line);
            s.source.push('\n');
        }
    }
    out.extend(current);
    out
}

/// Fragments that reach corners of the front end: preprocessor directives, nesting,
/// huge literals, loops, switch, built-ins, bindless declarations.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "?",
    ":",
    "=",
    "+=",
    "<<=",
    "++",
    "--",
    "!",
    "~",
    "^^",
    "&&",
    "#define X ",
    "#define F(a,b) a##b\n",
    "#undef X\n",
    "#if 1\n",
    "#if defined(X)\n",
    "#ifdef X\n",
    "#elif 0\n",
    "#else\n",
    "#endif\n",
    "\n#line 0 0\n",
    "#extension GL_ARB_bindless_texture : require\n",
    "#version 450 core\n",
    "#pragma x\n",
    "#error e\n",
    "__LINE__",
    "__FILE__",
    "__VERSION__",
    "\\\n",
    "/*",
    "*/",
    "// c\n",
    "X",
    "F(1,2)",
    "0",
    "1",
    "-1",
    "0x7fffffff",
    "4294967295u",
    "99999999999999999999",
    "1e39",
    "1e-50",
    "-0.0",
    ".5",
    "1.",
    "3.4028235e38",
    "int",
    "uint",
    "float",
    "bool",
    "vec2",
    "vec4",
    "ivec3",
    "uvec4",
    "mat4",
    "mat2x3",
    "float[2]",
    "float[]",
    "sampler2D",
    "struct S { float a; vec2 b[3]; };",
    "S",
    "const ",
    "in ",
    "out ",
    "uniform ",
    "flat ",
    "layout(location = 9) ",
    "layout(bindless_sampler) ",
    "layout(std140) uniform B { vec4 v; } b;",
    "uniform float u[4];",
    "u[7]",
    "b.v",
    "for (int i = 0; i < 10; ++i) {",
    "for (;;) {",
    "while (true) {",
    "do {",
    "} while (false);",
    "break;",
    "continue;",
    "return;",
    "discard;",
    "switch (1) { case 0: break; default: break; }",
    "case 1:",
    "default:",
    "if (",
    "else",
    "texture(",
    "texelFetch(",
    "textureSize(",
    "gl_FragCoord",
    "gl_Position",
    "gl_VertexID",
    "gl_FragDepth",
    "sin(",
    "pow(",
    "inversesqrt(",
    "mix(",
    "dot(",
    ".xyzw",
    ".xxxxx",
    ".rgb",
    ".stp",
    "length()",
    "((((((((((",
    "))))))))))",
    "void f(); ",
    "float g(float x) { return g(x); }",
    "main",
    "void main() {}",
];

/// One mutated shader for `seed`: a corpus entry with a few edits. Most edits keep the
/// shader's shape (a literal, operator or identifier swapped, a line repeated or dropped)
/// so that inputs reach the compiler's back half, the linker and the JIT; the rest are
/// rough (bytes, tokens, splices, deep nesting) for the preprocessor and parser.
pub fn glsl_input(seed: u64, corpus: &[Seed]) -> Seed {
    let mut rng = Rng::new(seed);
    let good: Vec<&Seed> = corpus.iter().filter(|s| s.compiles).collect();
    let base = if good.is_empty() || rng.chance(6) {
        rng.pick(corpus).clone()
    } else {
        (*rng.pick(&good)).clone()
    };
    let mut src: Vec<u8> = base.source.into_bytes();
    let edits = if rng.chance(4) { 1 + rng.below(8) } else { 1 };
    for _ in 0..edits {
        if rng.below(10) < 6 {
            gentle_edit(&mut rng, &mut src);
        } else {
            rough_edit(&mut rng, &mut src, corpus);
        }
    }
    Seed {
        stage: base.stage,
        source: String::from_utf8_lossy(&src).into_owned(),
        compiles: false,
    }
}

/// Literals, operators and lines changed in place.
fn gentle_edit(rng: &mut Rng, src: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(src).into_owned();
    let tokens = token_spans(&text);
    match rng.below(5) {
        0 | 1 => {
            // A literal or an identifier replaced: by an edge literal, or by another
            // identifier of the same shader.
            let numbers: Vec<(usize, usize)> = tokens
                .iter()
                .copied()
                .filter(|&(a, _)| text.as_bytes()[a].is_ascii_digit())
                // Not the #version line's number: that edit only tests one check.
                .filter(|&(a, _)| !text[..a].rsplit('\n').next().unwrap_or("").starts_with('#'))
                .collect();
            let from = if numbers.is_empty() || rng.chance(4) {
                &tokens
            } else {
                &numbers
            };
            if from.is_empty() {
                return;
            }
            let (a, b) = *rng.pick(from);
            let word = &text[a..b];
            let first = word.as_bytes()[0];
            let with: String = if first.is_ascii_digit() || first == b'.' {
                rng.pick(LITERALS).to_string()
            } else {
                let (c, d) = *rng.pick(&tokens);
                text[c..d].to_string()
            };
            src.splice(a..b, with.into_bytes());
        }
        2 => {
            // An operator replaced by another.
            let ops: Vec<usize> = src
                .iter()
                .enumerate()
                .filter(|(_, c)| b"+-*/<>=!&|^%~?".contains(c))
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = (!ops.is_empty()).then(|| rng.pick(&ops)) {
                let to = rng.pick(&[
                    "+", "-", "*", "/", "%", "<", ">=", "==", "&&", "|", "^", "<<", ">>", "!",
                ]);
                src.splice(at..at + 1, to.bytes());
            }
        }
        _ => {
            // A line repeated, dropped, or moved.
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if lines.is_empty() {
                return;
            }
            let mut out: Vec<&str> = lines.clone();
            let i = rng.below(lines.len());
            match rng.below(3) {
                0 => out.insert(i, lines[i]),
                1 => {
                    out.remove(i);
                }
                _ => {
                    let j = rng.below(lines.len());
                    out.swap(i, j);
                }
            }
            *src = out.concat().into_bytes();
        }
    }
}

/// Edge literals for the gentle edits.
const LITERALS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "0.0",
    "-0.0",
    "1e38",
    "1e39",
    "1e-45",
    "0.5",
    "3.4028235e38",
    "2147483647",
    "2147483648",
    "4294967295u",
    "0xffffffff",
    "99999999999",
    "1000000",
    "65536",
];

/// (start, end) of every identifier and number in `text`.
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Bytes, tokens, splices and deep nesting.
fn rough_edit(rng: &mut Rng, src: &mut Vec<u8>, corpus: &[Seed]) {
    let len = src.len().max(1);
    let at = rng.below(len).min(src.len());
    match rng.below(6) {
        0 => {
            if at < src.len() {
                src[at] = *rng.pick(b"(){}[];,.+-*/%<>=!&|^~?:#\\\n 0123456789aexuv_\"");
            }
        }
        1 => {
            let end = (at + 1 + rng.below(32)).min(src.len());
            src.drain(at..end);
        }
        2 => {
            let end = (at + 1 + rng.below(64)).min(src.len());
            let copy = src[at..end].to_vec();
            let times = if rng.chance(8) { 1 + rng.below(300) } else { 1 };
            for _ in 0..times {
                src.splice(at..at, copy.iter().copied());
            }
        }
        3 => {
            let t = rng.pick(TOKENS).as_bytes();
            src.splice(at..at, t.iter().copied());
        }
        4 => {
            // Splice: our prefix, another shader's suffix.
            let other = rng.pick(corpus).source.as_bytes();
            let from = rng.below(other.len().max(1)).min(other.len());
            src.truncate(at);
            src.extend_from_slice(&other[from..]);
        }
        _ => {
            // Deep nesting around a point.
            let deep = rng.chance(4);
            let depth = 1 + rng.below(if deep { 600 } else { 40 });
            let (open, close) = *rng.pick(&[("(", ")"), ("{", "}"), ("[", "]"), ("-", "")]);
            let mut mid = open.repeat(depth).into_bytes();
            mid.extend_from_slice(close.repeat(depth).as_bytes());
            src.splice(at..at, mid);
        }
    }
}

const PASS_VS: &str =
    "#version 330 core\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n";
const PASS_FS: &str =
    "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(gl_FragCoord.xy / 8.0, 0.5, 1.0); }\n";

/// A 1.0-claiming debug context (the override is not needed: the Rust API takes any
/// shader version the front end knows) with an 8×8 default framebuffer.
fn context() -> Context {
    let attribs = ContextAttribs {
        debug: true,
        ..ContextAttribs::default()
    };
    let mut c = Context::with_attribs(&attribs, None).expect("context");
    c.set_default_surface(Some(&Surface::new(8, 8, true).expect("surface")));
    c
}

/// How far a GLSL case got: a fuzzer whose inputs all stop at the parser tests little.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reached {
    CompileError,
    LinkError,
    Drawn,
}

/// Compiles `input` alone (checking the IR of a successful compile), then as half of a
/// program with a plain shader of the other stage, links it and draws one triangle.
pub fn glsl_case(input: &Seed) -> Result<Reached, String> {
    let mut failure = None;
    let mut reached = Reached::CompileError;
    without_panics(|| {
        let out = softgl::glsl::compile(input.stage, &input.source);
        if let Some(m) = &out.module {
            if let Err(e) = verify_module(m) {
                failure = Some(format!("malformed IR from a successful compile: {e}"));
                return;
            }
        }
        if !out.compiled {
            return;
        }
        let mut c = context();
        let (vs, fs) = match input.stage {
            Stage::Vertex => (input.source.as_str(), PASS_FS),
            _ => (PASS_VS, input.source.as_str()),
        };
        let program = c.create_program();
        for (ty, src) in [(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)] {
            let s = c.create_shader(ty);
            c.shader_source(s, &[src]);
            c.compile_shader(s);
            c.attach_shader(program, s);
        }
        c.link_program(program);
        reached = Reached::LinkError;
        if c.get_programiv(program, gl::LINK_STATUS) == 0 {
            return;
        }
        reached = Reached::Drawn;
        c.use_program(program);
        let vao = c.gen_vertex_arrays(1)[0];
        c.bind_vertex_array(vao);
        let vbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::ARRAY_BUFFER, vbo);
        let tri: [f32; 12] = [
            -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
        ];
        let bytes: Vec<u8> = tri.iter().flat_map(|f| f.to_le_bytes()).collect();
        c.buffer_data(
            gl::ARRAY_BUFFER,
            bytes.len() as isize,
            Some(&bytes),
            gl::STATIC_DRAW,
        );
        c.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0);
        c.enable_vertex_attrib_array(0);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        c.finish();
    })?;
    failure.map_or(Ok(reached), Err)
}

// ---- the API-sequence target ----------------------------------------------------------

/// Values that reach edges: zero, small, negative, limits and past them.
const INTS: &[i64] = &[
    0,
    1,
    2,
    3,
    4,
    7,
    16,
    64,
    255,
    1024,
    16384,
    16385,
    65536,
    1 << 20,
    i32::MAX as i64,
    -1,
    -2,
    i32::MIN as i64,
];

/// Enums a GL program passes, right and wrong for each command.
const ENUMS: &[u32] = &[
    0,
    gl::TEXTURE_2D,
    gl::TEXTURE_3D,
    gl::TEXTURE_CUBE_MAP,
    gl::ARRAY_BUFFER,
    gl::ELEMENT_ARRAY_BUFFER,
    gl::UNIFORM_BUFFER,
    gl::PIXEL_UNPACK_BUFFER,
    gl::PIXEL_PACK_BUFFER,
    gl::FRAMEBUFFER,
    gl::READ_FRAMEBUFFER,
    gl::DRAW_FRAMEBUFFER,
    gl::RENDERBUFFER,
    gl::COLOR_ATTACHMENT0,
    gl::COLOR_ATTACHMENT0 + 7,
    gl::COLOR_ATTACHMENT0 + 8,
    gl::DEPTH_ATTACHMENT,
    gl::DEPTH_STENCIL_ATTACHMENT,
    gl::RGBA,
    gl::RGBA8,
    gl::RGB,
    gl::RED,
    gl::R8,
    gl::RG8,
    gl::RGBA16F,
    gl::RGBA32F,
    gl::SRGB8_ALPHA8,
    gl::DEPTH_COMPONENT,
    gl::DEPTH_COMPONENT24,
    gl::DEPTH24_STENCIL8,
    gl::DEPTH_STENCIL,
    gl::UNSIGNED_BYTE,
    gl::UNSIGNED_SHORT,
    gl::UNSIGNED_INT,
    gl::FLOAT,
    gl::HALF_FLOAT,
    gl::UNSIGNED_SHORT_5_6_5,
    gl::UNSIGNED_INT_24_8,
    gl::TRIANGLES,
    gl::TRIANGLE_STRIP,
    gl::TRIANGLE_FAN,
    gl::POINTS,
    gl::LINES,
    gl::BLEND,
    gl::DEPTH_TEST,
    gl::CULL_FACE,
    gl::SCISSOR_TEST,
    gl::STENCIL_TEST,
    gl::TEXTURE_MIN_FILTER,
    gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S,
    gl::TEXTURE_BASE_LEVEL,
    gl::TEXTURE_MAX_LEVEL,
    gl::LINEAR,
    gl::NEAREST,
    gl::LINEAR_MIPMAP_LINEAR,
    gl::CLAMP_TO_BORDER,
    gl::REPEAT,
    gl::STATIC_DRAW,
    gl::MAP_READ_BIT,
    gl::MAP_WRITE_BIT,
    gl::SRC_ALPHA,
    gl::ONE_MINUS_SRC_ALPHA,
    gl::FUNC_ADD,
    gl::MIN,
    gl::LESS,
    gl::ALWAYS,
    gl::VIEWPORT,
    gl::MAX_TEXTURE_SIZE,
    gl::UNPACK_ALIGNMENT,
    gl::PACK_ALIGNMENT,
    gl::UNPACK_ROW_LENGTH,
    gl::PACK_ROW_LENGTH,
    gl::UNPACK_SKIP_ROWS,
    gl::VERTEX_SHADER,
    gl::FRAGMENT_SHADER,
    gl::LINK_STATUS,
    gl::COLOR_BUFFER_BIT,
    gl::DEPTH_BUFFER_BIT,
    0xFFFF_FFFF,
];

const BUF_TARGETS: &[u32] = &[
    gl::ARRAY_BUFFER,
    gl::ELEMENT_ARRAY_BUFFER,
    gl::UNIFORM_BUFFER,
    gl::PIXEL_UNPACK_BUFFER,
    gl::PIXEL_PACK_BUFFER,
    gl::COPY_READ_BUFFER,
];
const TEX_TARGET: &[u32] = &[gl::TEXTURE_2D];
const FB_TARGETS: &[u32] = &[gl::FRAMEBUFFER, gl::READ_FRAMEBUFFER, gl::DRAW_FRAMEBUFFER];
const ATTACHMENTS: &[u32] = &[
    gl::COLOR_ATTACHMENT0,
    gl::COLOR_ATTACHMENT0 + 1,
    gl::DEPTH_ATTACHMENT,
    gl::DEPTH_STENCIL_ATTACHMENT,
    gl::STENCIL_ATTACHMENT,
];
const IFORMATS: &[u32] = &[
    gl::RGBA8,
    gl::RGBA,
    gl::R8,
    gl::RG8,
    gl::RGBA16F,
    gl::RGBA32F,
    gl::SRGB8_ALPHA8,
    gl::DEPTH_COMPONENT24,
    gl::DEPTH24_STENCIL8,
    gl::RGB8,
];
const FORMATS: &[u32] = &[
    gl::RGBA,
    gl::RGB,
    gl::RED,
    gl::RG,
    gl::DEPTH_COMPONENT,
    gl::DEPTH_STENCIL,
    gl::BGRA,
];
const TYPES: &[u32] = &[
    gl::UNSIGNED_BYTE,
    gl::FLOAT,
    gl::HALF_FLOAT,
    gl::UNSIGNED_SHORT,
    gl::UNSIGNED_INT,
    gl::UNSIGNED_INT_24_8,
    gl::UNSIGNED_SHORT_5_6_5,
];
const INDEX_TYPES: &[u32] = &[gl::UNSIGNED_BYTE, gl::UNSIGNED_SHORT, gl::UNSIGNED_INT];
const MODES: &[u32] = &[
    gl::TRIANGLES,
    gl::TRIANGLE_STRIP,
    gl::TRIANGLE_FAN,
    gl::POINTS,
    gl::LINES,
];
const CAPS: &[u32] = &[gl::BLEND, gl::DEPTH_TEST, gl::CULL_FACE, gl::SCISSOR_TEST];
const TEX_PARAMS: &[u32] = &[
    gl::TEXTURE_MIN_FILTER,
    gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S,
    gl::TEXTURE_WRAP_T,
    gl::TEXTURE_BASE_LEVEL,
    gl::TEXTURE_MAX_LEVEL,
];
const TEX_VALUES: &[u32] = &[
    gl::LINEAR,
    gl::NEAREST,
    gl::LINEAR_MIPMAP_LINEAR,
    gl::NEAREST_MIPMAP_NEAREST,
    gl::CLAMP_TO_BORDER,
    gl::REPEAT,
    gl::CLAMP_TO_EDGE,
    gl::MIRRORED_REPEAT,
    0,
    1,
    1000,
];
const ATTRIB_TYPES: &[u32] = &[
    gl::FLOAT,
    gl::UNSIGNED_BYTE,
    gl::SHORT,
    gl::INT,
    gl::HALF_FLOAT,
];
const FACTORS: &[u32] = &[
    gl::ONE,
    gl::ZERO,
    gl::SRC_ALPHA,
    gl::ONE_MINUS_SRC_ALPHA,
    gl::DST_COLOR,
    gl::CONSTANT_ALPHA,
];
const EQUATIONS: &[u32] = &[gl::FUNC_ADD, gl::FUNC_SUBTRACT, gl::MIN, gl::MAX];
const FUNCS: &[u32] = &[gl::LESS, gl::ALWAYS, gl::NEVER, gl::GEQUAL];
const PNAMES: &[u32] = &[
    gl::VIEWPORT,
    gl::MAX_TEXTURE_SIZE,
    gl::DEPTH_FUNC,
    gl::BLEND_SRC_RGB,
    gl::TEXTURE_BINDING_2D,
    gl::ARRAY_BUFFER_BINDING,
    gl::MAX_DRAW_BUFFERS,
    gl::CURRENT_PROGRAM,
];
const STORE: &[u32] = &[
    gl::UNPACK_ALIGNMENT,
    gl::PACK_ALIGNMENT,
    gl::UNPACK_ROW_LENGTH,
    gl::PACK_ROW_LENGTH,
    gl::UNPACK_SKIP_ROWS,
    gl::UNPACK_SKIP_PIXELS,
    gl::PACK_SKIP_ROWS,
];
const MASKS: &[u32] = &[
    gl::COLOR_BUFFER_BIT,
    gl::DEPTH_BUFFER_BIT,
    gl::STENCIL_BUFFER_BIT,
    gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT,
];
const FILTERS: &[u32] = &[gl::NEAREST, gl::LINEAR];

/// The objects a sequence made, so later commands name live, deleted and random names.
#[derive(Default)]
struct Names {
    buffers: Vec<u32>,
    textures: Vec<u32>,
    framebuffers: Vec<u32>,
    renderbuffers: Vec<u32>,
    vaos: Vec<u32>,
    samplers: Vec<u32>,
    programs: Vec<u32>,
    handles: Vec<u64>,
}

struct Api<'a> {
    rng: &'a mut Rng,
    names: Names,
}

impl Api<'_> {
    fn int(&mut self) -> i32 {
        if self.rng.chance(4) {
            self.rng.next() as i32
        } else {
            *self.rng.pick(INTS) as i32
        }
    }
    /// A small or edge size/count, mostly small so that work happens.
    fn size(&mut self) -> i32 {
        if self.rng.chance(3) {
            self.int()
        } else {
            self.rng.below(20) as i32
        }
    }
    fn en(&mut self) -> u32 {
        *self.rng.pick(ENUMS)
    }
    /// Mostly one of the values the parameter takes, sometimes any enum.
    fn of(&mut self, good: &[u32]) -> u32 {
        if self.rng.chance(6) {
            self.en()
        } else {
            *self.rng.pick(good)
        }
    }
    fn name(&mut self, of: fn(&Names) -> &Vec<u32>) -> u32 {
        let list = of(&self.names);
        if list.is_empty() || self.rng.chance(6) {
            return self.rng.below(6) as u32 + if self.rng.chance(2) { 0 } else { 0x100000 };
        }
        list[self.rng.below(list.len())]
    }
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.rng.below(max + 1);
        (0..n).map(|_| self.rng.next() as u8).collect()
    }
    fn float(&mut self) -> f32 {
        *self.rng.pick(&[
            0.0,
            1.0,
            -1.0,
            0.5,
            1e30,
            -1e30,
            f32::INFINITY,
            f32::NAN,
            1e-40,
        ])
    }
}

/// One random command on `c`. Commands that would need the application to pass a wrong
/// client pointer are not called (the Rust API takes slices).
fn api_step(c: &mut Context, a: &mut Api) {
    match a.rng.below(40) {
        0 => {
            let n = a.size().clamp(-1, 8);
            let made = match a.rng.below(6) {
                0 => c.gen_buffers(n),
                1 => c.gen_textures(n),
                2 => c.gen_framebuffers(n),
                3 => c.gen_renderbuffers(n),
                4 => c.gen_vertex_arrays(n),
                _ => c.create_samplers(n),
            };
            let list = match a.rng.below(6) {
                0 => &mut a.names.buffers,
                1 => &mut a.names.textures,
                2 => &mut a.names.framebuffers,
                3 => &mut a.names.renderbuffers,
                4 => &mut a.names.vaos,
                _ => &mut a.names.samplers,
            };
            list.extend(made);
        }
        1 => {
            let t = a.of(BUF_TARGETS);
            let n = a.name(|n| &n.buffers);
            c.bind_buffer(t, n);
        }
        2 => {
            let t = a.of(BUF_TARGETS);
            let size = if a.rng.chance(8) {
                *a.rng.pick(&[-1isize, isize::MAX, 1 << 62, 1 << 40])
            } else {
                a.rng.below(4096) as isize
            };
            let data = a.bytes(4096);
            let data = (data.len() as isize >= size && size >= 0).then(|| &data[..size as usize]);
            let usage = a.of(&[gl::STATIC_DRAW, gl::DYNAMIC_DRAW, gl::STREAM_READ]);
            c.buffer_data(t, size, data, usage);
        }
        3 => {
            let t = a.of(BUF_TARGETS);
            let off = a.int() as isize;
            let data = a.bytes(256);
            c.buffer_sub_data(t, off, &data);
        }
        4 => {
            let t = a.of(TEX_TARGET);
            let n = a.name(|n| &n.textures);
            c.bind_texture(t, n);
        }
        5 => {
            let (t, level, ifmt, w, h) = (
                a.of(TEX_TARGET),
                a.size().clamp(-1, 20),
                a.of(IFORMATS),
                a.size(),
                a.size(),
            );
            let (fmt, ty) = (a.of(FORMATS), a.of(TYPES));
            let w = if a.rng.chance(3) { w } else { w.clamp(0, 64) };
            let h = if a.rng.chance(3) { h } else { h.clamp(0, 64) };
            let data = a.bytes(64 * 64 * 16);
            let data = (!a.rng.chance(4)).then_some(&data[..]);
            let border = if a.rng.chance(8) { 1 } else { 0 };
            c.tex_image_2d(t, level, ifmt as i32, w, h, border, fmt, ty, data);
        }
        6 => {
            let (t, level, x, y, w, h) = (
                a.of(TEX_TARGET),
                a.size().clamp(-1, 20),
                a.size(),
                a.size(),
                a.size(),
                a.size(),
            );
            let (fmt, ty) = (a.of(FORMATS), a.of(TYPES));
            let data = a.bytes(64 * 64 * 16);
            c.tex_sub_image_2d(
                t,
                level,
                x,
                y,
                w.clamp(-1, 64),
                h.clamp(-1, 64),
                fmt,
                ty,
                &data,
            );
        }
        7 => {
            let (t, levels, ifmt, w, h) = (
                a.of(TEX_TARGET),
                a.size(),
                a.of(IFORMATS),
                a.size(),
                a.size(),
            );
            c.tex_storage_2d(t, levels, ifmt, w.clamp(-1, 256), h.clamp(-1, 256));
        }
        8 => {
            let (t, p) = (a.of(TEX_TARGET), a.of(TEX_PARAMS));
            let v = if a.rng.chance(4) {
                a.int()
            } else {
                a.of(TEX_VALUES) as i32
            };
            c.tex_parameter_i(t, p, v);
        }
        9 => {
            let t = a.of(TEX_TARGET);
            c.generate_mipmap(t);
        }
        10 => {
            let (t, n) = (a.of(FB_TARGETS), a.name(|n| &n.framebuffers));
            c.bind_framebuffer(t, n);
        }
        11 => {
            let (t, at, tt, tex, level) = (
                a.of(FB_TARGETS),
                a.of(ATTACHMENTS),
                a.of(TEX_TARGET),
                a.name(|n| &n.textures),
                a.size().clamp(-1, 4),
            );
            c.framebuffer_texture_2d(t, at, tt, tex, level);
        }
        12 => {
            let (t, n) = (a.of(&[gl::RENDERBUFFER]), a.name(|n| &n.renderbuffers));
            c.bind_renderbuffer(t, n);
        }
        13 => {
            let (t, f, w, h) = (
                a.of(&[gl::RENDERBUFFER]),
                a.of(IFORMATS),
                a.size(),
                a.size(),
            );
            c.renderbuffer_storage(t, f, w.clamp(-1, 128), h.clamp(-1, 128));
        }
        14 => {
            let (t, at, rt, rb) = (
                a.of(FB_TARGETS),
                a.of(ATTACHMENTS),
                a.of(&[gl::RENDERBUFFER]),
                a.name(|n| &n.renderbuffers),
            );
            c.framebuffer_renderbuffer(t, at, rt, rb);
        }
        15 => {
            let t = a.of(FB_TARGETS);
            c.check_framebuffer_status(t);
        }
        16 => {
            let n = a.name(|n| &n.vaos);
            c.bind_vertex_array(n);
        }
        17 => {
            let (i, size, ty, stride) = (a.size() as u32, a.size(), a.of(ATTRIB_TYPES), a.size());
            let off = a.int() as u32 as usize;
            c.vertex_attrib_pointer(i, size, ty, a.rng.chance(2), stride, off);
        }
        18 => {
            let i = a.size() as u32;
            if a.rng.chance(2) {
                c.enable_vertex_attrib_array(i);
            } else {
                c.disable_vertex_attrib_array(i);
            }
        }
        19 | 20 => {
            let (mode, first, count) = (a.of(MODES), a.size(), a.size());
            // A huge DrawArrays count with no arrays enabled is real work (gl_VertexID runs
            // to it on every driver), not a hang: kept to 2^16 vertices.
            c.draw_arrays(mode, first, count.min(1 << 16));
        }
        21 => {
            let (mode, count, ty) = (a.of(MODES), a.size(), a.of(INDEX_TYPES));
            let off = a.int() as u32 as usize;
            c.draw_elements(mode, count, ty, off);
        }
        22 => {
            let (mode, first, count, inst) =
                (a.of(MODES), a.size(), a.size(), a.size().clamp(-1, 4));
            c.draw_arrays_instanced(mode, first, count.min(1 << 16), inst);
        }
        23 => {
            let mask = if a.rng.chance(4) {
                a.int() as u32
            } else {
                a.of(MASKS)
            };
            c.clear(mask);
        }
        24 => {
            let cap = a.of(CAPS);
            match a.rng.below(3) {
                0 => c.enable(cap),
                1 => c.disable(cap),
                _ => {
                    c.is_enabled(cap);
                }
            }
        }
        25 => {
            let p = a.of(PNAMES);
            match a.rng.below(3) {
                0 => {
                    c.get_integerv(p);
                }
                1 => {
                    c.get_floatv(p);
                }
                _ => {
                    c.get_booleanv(p);
                }
            }
        }
        26 => {
            let (x, y, w, h) = (a.size(), a.size(), a.size(), a.size());
            match a.rng.below(2) {
                0 => c.viewport(x, y, w, h),
                _ => c.scissor(x, y, w, h),
            }
        }
        27 => {
            let (x, y, w, h, f, t) = (
                a.size(),
                a.size(),
                a.size(),
                a.size(),
                a.of(FORMATS),
                a.of(TYPES),
            );
            let _ = c.read_pixels(x, y, w.clamp(-1, 64), h.clamp(-1, 64), f, t);
        }
        28 => {
            let (s, d) = (a.of(FACTORS), a.of(FACTORS));
            c.blend_func(s, d);
            let e = a.of(EQUATIONS);
            c.blend_equation(e);
        }
        29 => {
            let f = a.of(FUNCS);
            c.depth_func(f);
            c.depth_mask(a.rng.chance(2));
            c.color_mask(a.rng.chance(2), true, a.rng.chance(2), true);
        }
        30 => {
            let t = a.name(|n| &n.textures);
            let h = if a.rng.chance(2) {
                c.get_texture_handle_arb(t)
            } else {
                let s = a.name(|n| &n.samplers);
                c.get_texture_sampler_handle_arb(t, s)
            };
            if h != 0 {
                a.names.handles.push(h);
            }
        }
        31 => {
            let h = if a.names.handles.is_empty() || a.rng.chance(5) {
                a.rng.next()
            } else {
                *a.rng.pick(&a.names.handles)
            };
            match a.rng.below(3) {
                0 => c.make_texture_handle_resident_arb(h),
                1 => c.make_texture_handle_non_resident_arb(h),
                _ => {
                    c.is_texture_handle_resident_arb(h);
                }
            }
        }
        32 => {
            let p = a.name(|n| &n.programs);
            c.use_program(p);
        }
        33 => {
            let loc = a.size();
            match a.rng.below(4) {
                0 => {
                    let v: Vec<f32> = (0..a.rng.below(12)).map(|_| a.float()).collect();
                    c.uniform_4fv(loc, &v);
                }
                1 => c.uniform_1i(loc, a.int()),
                2 => {
                    let h = a.names.handles.first().copied().unwrap_or(7);
                    c.uniform_handle_ui64_arb(loc, h);
                }
                _ => {
                    let v: Vec<f32> = (0..a.rng.below(40)).map(|_| a.float()).collect();
                    c.uniform_matrix_4fv(loc, a.rng.chance(2), &v);
                }
            }
        }
        34 => {
            let (t, i, b) = (
                a.of(&[gl::UNIFORM_BUFFER]),
                a.size() as u32,
                a.name(|n| &n.buffers),
            );
            if a.rng.chance(2) {
                c.bind_buffer_base(t, i, b);
            } else {
                let (off, size) = (a.int() as isize, a.int() as isize);
                c.bind_buffer_range(t, i, b, off, size);
            }
        }
        35 => {
            let (p, v) = (a.of(STORE), a.size());
            c.pixel_storei(p, v);
        }
        36 => {
            let which = a.rng.below(4);
            match which {
                0 => {
                    let v = a.names.textures.clone();
                    let k = a.rng.below(v.len() + 1);
                    c.delete_textures(&v[..k]);
                }
                1 => {
                    let v = a.names.buffers.clone();
                    let k = a.rng.below(v.len() + 1);
                    c.delete_buffers(&v[..k]);
                }
                2 => {
                    let v = a.names.framebuffers.clone();
                    c.delete_framebuffers(&v);
                }
                _ => {
                    let v = a.names.programs.clone();
                    if let Some(&p) = v.first() {
                        c.delete_program(p);
                    }
                }
            }
        }
        37 => {
            let (t, off, len) = (a.of(BUF_TARGETS), a.size() as isize, a.size() as isize);
            let acc = a.of(&[
                gl::MAP_READ_BIT,
                gl::MAP_WRITE_BIT,
                gl::MAP_READ_BIT | gl::MAP_WRITE_BIT,
            ]);
            let p = c.map_buffer_range(t, off, len, acc);
            let _ = p;
            if a.rng.chance(2) {
                c.unmap_buffer(t);
            }
        }
        38 => {
            let (sx, sy, dx, dy) = (a.size(), a.size(), a.size(), a.size());
            let (mask, filter) = (a.of(MASKS), a.of(FILTERS));
            c.blit_framebuffer(0, 0, sx, sy, 0, 0, dx, dy, mask, filter);
        }
        _ => {
            c.flush();
            if a.rng.chance(4) {
                c.finish();
            }
        }
    }
}

/// A textured bindless-capable program, so draws in a sequence have work to do.
fn api_program(c: &mut Context) -> u32 {
    let fs = "#version 330 core\nuniform sampler2D t;\nuniform vec4 k[3];\nout vec4 o;\n\
              void main() { o = texture(t, gl_FragCoord.xy / 8.0) + k[1]; }\n";
    let p = c.create_program();
    for (ty, src) in [(gl::VERTEX_SHADER, PASS_VS), (gl::FRAGMENT_SHADER, fs)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        c.attach_shader(p, s);
    }
    c.link_program(p);
    p
}

/// `steps` random commands from `seed`, each followed by glGetError; the image is read at
/// the end so every queued draw runs. Returns how many commands raised no error.
pub fn api_case(seed: u64, steps: usize) -> Result<usize, String> {
    let mut rng = Rng::new(seed);
    let mut accepted = 0;
    without_panics(|| {
        let mut c = context();
        let p = api_program(&mut c);
        let mut api = Api {
            rng: &mut rng,
            names: Names::default(),
        };
        api.names.programs.push(p);
        for _ in 0..steps {
            api_step(&mut c, &mut api);
            accepted += usize::from(c.get_error() == gl::NO_ERROR);
        }
        c.bind_framebuffer(gl::FRAMEBUFFER, 0);
        let _ = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
        c.finish();
    })?;
    Ok(accepted)
}
