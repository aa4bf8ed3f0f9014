//! The `.shader_test` format: text → [`Script`] (sections, requirements, commands, probes).
//! Running a script is `run.rs`'s business; nothing here touches GL.
//!
//! # Format
//!
//! The format is piglit's (`tests/shaders/shader_runner.c`): every spelling shader_runner
//! accepts for the commands below is accepted, plus softgl's own commands (`ubo`,
//! `block binding NAME`, `uniform handle-uvec2`, `texture miplevels`, `blend func`, …).
//! Commands shader_runner has and this runner lacks are kept as
//! [`Command::Unsupported`]: the scene fails with `unsupported command X` once its
//! requirements are met, never with a misleading error. Text before the first section is
//! ignored, as shader_runner ignores it. A file is a list of sections, each opened by a
//! `[name]` line:
//!
//! - `[require]`: one requirement per line: `GL >= 3.3`, `GL CORE >= 4.5`, `GL COMPAT >= 3.2`,
//!   `GLSL >= 1.30` (comparisons `>=`, `>`, `<=`, `<`, `=`, `==`, `!=`), an extension name
//!   `GL_ARB_bindless_texture`, `!GL_EXT_foo` (the extension must be absent), a limit
//!   `GL_MAX_VERTEX_OUTPUT_COMPONENTS >= 128` or `INT GL_ANY_INTEGER_STATE >= N`,
//!   `GL ES …` (never met), `SIZE W H` (the window size), `depthbuffer` and `rlimit N`
//!   (nothing to do). Unmet → the scene is skipped. The run's context asks for the GL
//!   version these imply, as shader_runner's does (see `run::context_attribs`).
//! - `[vertex shader]`, `[tessellation control shader]`, `[tessellation evaluation shader]`,
//!   `[geometry shader]`, `[fragment shader]`, `[compute shader]`: GLSL source, verbatim;
//!   several sections of one stage are several shader objects. A shader without a
//!   `#version` line gets `#version N` of the `GLSL >= N` requirement (shader_runner's rule).
//! - `[vertex shader passthrough]`: a generated vertex shader that passes `piglit_vertex`
//!   through to `gl_Position`: shader_runner's, in the GLSL requirement's version, or
//!   without one, in the fragment shader's `#version` (see [`passthrough_vertex_shader`]).
//! - `[vertex data]`: a header `name/type/count ...` (type `float`, `int` or `uint`; count
//!   1..4, or a GLSL type name like `vec3`) then one row of numbers per vertex. A column
//!   name that is a number is an attribute location.
//! - `[test]`: commands, one per line. `#` starts a comment in every section but the
//!   shader ones.
//!
//! # Commands
//!
//! Numbers may be written bare or grouped in parentheses with commas: `probe rgb (1, 2)
//! (0, 1, 0)` and `probe rgb 1 2 0 1 0` are the same command.
//!
//! | command | GL |
//! |---|---|
//! | `clear color r g b a` / `clear depth d` / `clear` | glClearColor / glClearDepth / glClear(color+depth) |
//! | `enable GL_X` / `disable GL_X` | glEnable / glDisable (any GL name; `GL_CLIP_PLANEi` is `GL_CLIP_DISTANCEi`) |
//! | `depthfunc GL_LESS` / `depth mask 0\|1` | glDepthFunc / glDepthMask |
//! | `clear stencil s` | glClearStencil(s) then glClear(GL_STENCIL_BUFFER_BIT) (softgl's own) |
//! | `stencil func FACE FUNC ref mask` / `stencil op FACE SFAIL DPFAIL DPPASS` / `stencil mask FACE mask` | glStencilFuncSeparate / glStencilOpSeparate / glStencilMaskSeparate (softgl's own; GL names) |
//! | `blend func SRC DST [SRC_A DST_A]` | glBlendFunc(Separate) |
//! | `blend equation MODE [MODE_A]` | glBlendEquation(Separate) |
//! | `blend color r g b a` / `color mask r g b a` (0/1) | glBlendColor / glColorMask |
//! | `scissor x y w h` / `viewport x y w h` | glScissor / glViewport |
//! | `cull face GL_BACK` / `front face GL_CW` or `frontface cw\|ccw` / `provoking vertex first\|last` (or the GL names) | glCullFace / glFrontFace / glProvokingVertex |
//! | `draw rect [ortho] x y w h` | two CCW triangles; `piglit_vertex` = (x, y, 0, 1) corners in NDC (ortho: window pixels), `piglit_texcoord` = (0..1, 0..1) |
//! | `draw instanced rect [ortho] N x y w h` | the same, N instances |
//! | `draw arrays [instanced] MODE first count [instances]` | from `[vertex data]`; any GL mode name |
//! | `patch parameter vertices N` / `patch parameter default level outer\|inner v...` | glPatchParameteri(GL_PATCH_VERTICES) / glPatchParameterfv (4 outer, 2 inner levels) |
//! | `uniform TYPE NAME v...` | glUniform*: `float vec2..4 int ivec2..4 uint uvec2..4 bool bvec2..4 mat2..4 matCxR` (matrices column-major; floats also as `0x…` IEEE bits); NAME may be a location number. A member of a uniform block is written into its block's buffer instead, as shader_runner does: found through glGetUniformIndices and glGetActiveUniformsiv (block index, offset, array stride for a trailing `[N]`, matrix stride, row-major), block i bound at binding i with a buffer of its UNIFORM_BLOCK_DATA_SIZE |
//! | `uniform handle NAME UNIT` | glUniformHandleui64ARB(loc, handle of the texture at UNIT); a block member gets the 8 bytes in its block's buffer |
//! | `uniform handle-uvec2 NAME UNIT` | glUniform2ui(loc, low 32 bits, high 32 bits) of that handle |
//! | `uniform handle-uint64 NAME UNIT` | glUniform1ui64ARB(loc, handle) |
//! | `ubo BINDING OFFSET TYPE v...` | writes the values (scalar/vector types) at byte OFFSET of the uniform buffer bound to BINDING (created and grown as needed, uploaded before each draw) |
//! | `ubo BINDING OFFSET handle UNIT` | writes the 8-byte handle of the texture at UNIT there |
//! | `block binding NAME BINDING` | glUniformBlockBinding(program, glGetUniformBlockIndex(NAME), BINDING) (GL 3.1 core, so scenes need no `layout(binding)`) |
//! | `vertex attrib handle NAME UNIT` | glVertexAttribL1ui64ARB(location of NAME, handle of the texture at UNIT) |
//! | `texture rgbw UNIT (W, H) [GL_FORMAT]` | quadrants red (s<½,t<½), green (s≥½,t<½), blue (s<½,t≥½), white; every mip level drawn the same way down to 1×1 (a 1-texel level is white); min `GL_NEAREST_MIPMAP_NEAREST`, mag `GL_NEAREST` |
//! | `texture checkerboard UNIT LEVEL (W, H) (c1) (c2) [GL_FORMAT]` | 2×2 squares of W/2×H/2 texels, c1 at bottom-left and top-right; only LEVEL defined; min and mag `GL_NEAREST`, max level = LEVEL, base level = LEVEL |
//! | `texture miplevels UNIT (W, H)` | a full mip chain, level i a solid colour: red, green, blue, white, yellow, cyan, magenta, then grey (0.5) |
//! | `texparameter TARGET min\|mag\|wrap_s\|wrap_t\|wrap_r\|compare_func\|depth_mode\|swizzle_r\|border_color\|lod_bias\|min_lod\|max_lod\|base_level\|max_level VALUE` | glTexParameter on the texture bound to TARGET (`1D 2D 3D Rect Cube 1DArray 2DArray CubeArray`) at the active unit; enum values as shader_runner's words (`nearest`, `linear_mipmap_linear`, `clamp_to_edge`, `lequal`, `red`, …) or GL names |
//! | `active uniform NAME GL_PNAME VALUE` | glGetActiveUniformsiv(NAME's index, PNAME) must be VALUE (a number or a GL name) |
//! | `active texture UNIT` | glActiveTexture (every `texture` command also makes its unit active) |
//! | `resident texture UNIT` | glMakeTextureHandleResidentARB(handle of the texture at UNIT) |
//! | `nonresident texture UNIT` | glMakeTextureHandleNonResidentARB |
//! | `delete texture UNIT` | glDeleteTextures; the handle made from it (if any) stays known to the script, so a later `uniform handle` passes the stale value |
//! | `probe rgb x y r g b` / `probe rgba x y r g b a` | one pixel |
//! | `relative probe rgb (x, y) (r, g, b)` / `relative probe rgba` | pixel at (x·W, y·H) (fractions of the window) |
//! | `relative probe rect rgb (x, y, w, h) (r, g, b)` / `… rgba` | the rectangle (x·W, y·H, w·W, h·H) |
//! | `probe all rgb r g b` / `probe all rgba` | every pixel |
//! | `probe rect rgb (x, y, w, h) (r, g, b)` / `probe rect rgba` | every pixel of a rectangle |
//! | `link error` / `link success` | every shader compiled and the link failed / the program compiled and linked |
//!
//! Probe tolerance: like piglit with 8-bit channels, each channel passes when
//! `|got/255 − expected| ≤ 1/255 + 0.001` ([`PROBE_TOLERANCE`]).
//!
//! The texture commands upload RGBA float data with the given internal format (default
//! `GL_RGBA8`); the driver converts it as glTexImage2D specifies.

use thiserror::Error;

use softgl::enums;

use super::gl_names::gl_enum_by_name;

/// Per-channel probe tolerance: one 8-bit step plus an epsilon for the conversion of the
/// expected value (piglit's tolerance for 8-bit framebuffers).
pub const PROBE_TOLERANCE: f32 = 1.0 / 255.0 + 0.001;

/// A parse failure, with the 1-based line it was found on.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParseError {
    /// A `[section]` softgl does not know (geometry shaders, for example).
    #[error("line {line}: unknown section [{name}]")]
    UnknownSection { line: usize, name: String },
    /// A `[test]` line that starts with no command piglit's shader_runner or softgl knows.
    #[error("line {line}: unknown command `{text}`")]
    UnknownCommand { line: usize, text: String },
    /// A command with the wrong number or kind of arguments.
    #[error("line {line}: bad {what} in `{text}`")]
    BadArgument {
        line: usize,
        what: &'static str,
        text: String,
    },
    /// A `GL_*` name that is not one the format accepts at that place.
    #[error("line {line}: unknown or unexpected GL enum `{name}`")]
    UnknownEnum { line: usize, name: String },
    /// A `[require]` line in no known form.
    #[error("line {line}: bad requirement `{text}`")]
    BadRequirement { line: usize, text: String },
    /// A `[vertex data]` row whose width differs from the header's.
    #[error("line {line}: vertex data row has {got} values, the header wants {want}")]
    VertexDataWidth {
        line: usize,
        got: usize,
        want: usize,
    },
    /// A section given twice (shader sections excepted: several of one stage are several
    /// shader objects, as in shader_runner).
    #[error("line {line}: section [{name}] given twice")]
    DuplicateSection { line: usize, name: String },
    /// A section, requirement or command piglit's shader_runner knows that this runner does
    /// not implement: named as such, so that it is not taken for a failure of the driver.
    #[error("line {line}: unsupported command `{what}`")]
    Unsupported { line: usize, what: String },
}

/// A parsed scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub requirements: Vec<Requirement>,
    /// The shader sections in file order. Several sections of one stage are several shader
    /// objects attached to the one program (shader_runner does the same).
    pub shaders: Vec<ShaderSection>,
    pub vertex_data: Option<VertexData>,
    pub commands: Vec<Line<Command>>,
    /// `SIZE W H` in `[require]`: the window size the scene wants.
    pub window_size: Option<(u32, u32)>,
    /// A `GL COMPAT >= X` requirement: the scene wants a compatibility-profile context.
    pub compat_profile: bool,
}

/// One shader section.
#[derive(Clone, Debug, PartialEq)]
pub enum ShaderSection {
    /// `[vertex shader]`, `[geometry shader]`, …: the stage (`GL_VERTEX_SHADER`, …) and the
    /// text, verbatim.
    Source { stage: u32, text: String },
    /// `[vertex shader passthrough]`.
    VertexPassthrough,
}

impl Script {
    /// The GLSL version of the first `GLSL >= X` requirement, which shader_runner writes as
    /// `#version` into shaders that have none.
    pub fn glsl_requirement(&self) -> Option<Version> {
        self.requirements.iter().find_map(|r| match r {
            Requirement::Glsl(Cmp::Ge, v) => Some(*v),
            _ => None,
        })
    }

    /// The shaders to compile, (stage, source), in file order. As in shader_runner, a
    /// shader without a `#version` line gets `#version N` of the GLSL requirement put in
    /// front, and the pass-through vertex shader is written in that version. Without a GLSL
    /// requirement (softgl's own scenes) shaders stay as written and the pass-through shader
    /// follows the first fragment shader's `#version`.
    pub fn shader_sources(&self) -> Vec<(u32, String)> {
        let glsl = self.glsl_requirement();
        let directive = glsl.map(|v| format!("#version {}\n", v.major * 100 + v.minor));
        let first_fragment = self.shaders.iter().find_map(|s| match s {
            ShaderSection::Source { stage, text } if *stage == enums::FRAGMENT_SHADER => {
                Some(text.as_str())
            }
            _ => None,
        });
        self.shaders
            .iter()
            .map(|s| match (s, &directive) {
                (ShaderSection::Source { stage, text }, Some(d)) if !text.contains("#version ") => {
                    (*stage, format!("{d}{text}"))
                }
                (ShaderSection::Source { stage, text }, _) => (*stage, text.clone()),
                (ShaderSection::VertexPassthrough, Some(d)) => (
                    enums::VERTEX_SHADER,
                    format!("{d}{PIGLIT_PASSTHROUGH_BODY}"),
                ),
                (ShaderSection::VertexPassthrough, None) => (
                    enums::VERTEX_SHADER,
                    passthrough_vertex_shader(first_fragment.unwrap_or("")),
                ),
            })
            .collect()
    }

    /// Whether the scene has a shader of `stage` (a pass-through one counts as a vertex
    /// shader).
    pub fn has_stage(&self, stage: u32) -> bool {
        self.shaders.iter().any(|s| match s {
            ShaderSection::Source { stage: st, .. } => *st == stage,
            ShaderSection::VertexPassthrough => stage == enums::VERTEX_SHADER,
        })
    }

    /// Whether the scene expects its program to fail to link (a `link error` command).
    pub fn expects_link_error(&self) -> bool {
        self.commands.iter().any(|c| c.item == Command::LinkError)
    }
}

/// A value with the 1-based source line it came from, for messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<T> {
    pub line: usize,
    pub item: T,
}

/// A GL or GLSL version, the minor part normalized to two digits ("3.3" and "3.30" are
/// both `{ major: 3, minor: 30 }`), so GL and GLSL versions compare alike.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
}

impl Version {
    /// Parses the leading `major.minor` of a version string such as GL_VERSION's
    /// `"4.5 (Core Profile) softgl 0.1"` or GLSL's `"4.50"`.
    pub fn parse_leading(s: &str) -> Option<Version> {
        let s = s.trim_start();
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let (major, minor) = s[..end].split_once('.')?;
        let major = major.parse().ok()?;
        let minor_digits: String = minor.chars().take_while(char::is_ascii_digit).collect();
        let minor = match minor_digits.len() {
            0 => return None,
            1 => minor_digits.parse::<u32>().ok()? * 10,
            _ => minor_digits[..2].parse::<u32>().ok()?,
        };
        Some(Version { major, minor })
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{:02}", self.major, self.minor)
    }
}

/// How a version requirement compares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cmp {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
    Ne,
}

impl Cmp {
    /// Whether `have CMP want` holds.
    pub fn holds(self, have: Version, want: Version) -> bool {
        match self {
            Cmp::Ge => have >= want,
            Cmp::Gt => have > want,
            Cmp::Le => have <= want,
            Cmp::Lt => have < want,
            Cmp::Eq => have == want,
            Cmp::Ne => have != want,
        }
    }

    /// Whether `have CMP want` holds for integers (limit requirements).
    pub fn holds_int(self, have: i32, want: i32) -> bool {
        match self {
            Cmp::Ge => have >= want,
            Cmp::Gt => have > want,
            Cmp::Le => have <= want,
            Cmp::Lt => have < want,
            Cmp::Eq => have == want,
            Cmp::Ne => have != want,
        }
    }

    /// Parses `>=`, `>`, `<=`, `<`, `=`, `==` or `!=`.
    fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            ">=" => Cmp::Ge,
            ">" => Cmp::Gt,
            "<=" => Cmp::Le,
            "<" => Cmp::Lt,
            "=" | "==" => Cmp::Eq,
            "!=" => Cmp::Ne,
            _ => return None,
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
        }
    }
}

/// One `[require]` line.
#[derive(Clone, Debug, PartialEq)]
pub enum Requirement {
    Gl(Cmp, Version),
    Glsl(Cmp, Version),
    /// An extension that must be present (`GL_ARB_x`) or absent (`!GL_ARB_x`).
    Extension {
        name: String,
        present: bool,
    },
    /// An implementation limit: `GL_MAX_VERTEX_OUTPUT_COMPONENTS >= 128`, or
    /// `INT GL_X >= N` (shader_runner's form for any glGetIntegerv value): `have CMP value`.
    Limit {
        name: String,
        pname: u32,
        cmp: Cmp,
        value: i32,
    },
    /// `GL ES …` / `GLSL ES …`: an OpenGL ES version, which softgl does not offer.
    Es(String),
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Requirement::Gl(c, v) => write!(f, "GL {} {v}", c.as_str()),
            Requirement::Glsl(c, v) => write!(f, "GLSL {} {v}", c.as_str()),
            Requirement::Extension {
                name,
                present: true,
            } => f.write_str(name),
            Requirement::Extension {
                name,
                present: false,
            } => write!(f, "!{name}"),
            Requirement::Limit {
                name, cmp, value, ..
            } => write!(f, "{name} {} {value}", cmp.as_str()),
            Requirement::Es(text) => f.write_str(text),
        }
    }
}

/// The pass-through vertex shader's body after the `#version` line, as shader_runner
/// writes it (`in` from GLSL 1.30 on, `attribute` before).
const PIGLIT_PASSTHROUGH_BODY: &str = "#if __VERSION__ >= 130\nin vec4 piglit_vertex;\n#else\n\
                                       attribute vec4 piglit_vertex;\n#endif\n\
                                       void main() { gl_Position = piglit_vertex; }\n";

/// Component type of a `[vertex data]` column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttribType {
    Float,
    Int,
    Uint,
}

/// Where a column goes: a named attribute or an explicit location.
#[derive(Clone, Debug, PartialEq)]
pub enum AttribTarget {
    Name(String),
    Location(u32),
}

/// One `[vertex data]` column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub target: AttribTarget,
    pub ty: AttribType,
    /// Components, 1..=4.
    pub count: u8,
    /// Byte offset of the column in a vertex.
    pub offset_bytes: usize,
}

/// The `[vertex data]` section, packed into one interleaved vertex buffer (every
/// component 4 bytes, little-endian).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexData {
    pub columns: Vec<Column>,
    pub stride_bytes: usize,
    pub vertices: usize,
    pub bytes: Vec<u8>,
}

/// Values of a `uniform` or `ubo` command.
#[derive(Clone, Debug, PartialEq)]
pub enum UniformValue {
    /// `float`, `vec2..4`: `comps` components per element.
    Float { comps: u8, values: Vec<f32> },
    /// `int`, `ivec2..4`, `bool`, `bvec2..4` (GL sets bools with glUniform*i).
    Int { comps: u8, values: Vec<i32> },
    /// `uint`, `uvec2..4`.
    Uint { comps: u8, values: Vec<u32> },
    /// `matCxR`: C columns of R rows, column-major values.
    Matrix {
        cols: u8,
        rows: u8,
        values: Vec<f32>,
    },
}

impl UniformValue {
    /// Little-endian bytes of the values, tightly packed (for `ubo`; std140 padding is the
    /// scene author's business, through the offsets).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            UniformValue::Float { values, .. } | UniformValue::Matrix { values, .. } => {
                values.iter().flat_map(|v| v.to_le_bytes()).collect()
            }
            UniformValue::Int { values, .. } => {
                values.iter().flat_map(|v| v.to_le_bytes()).collect()
            }
            UniformValue::Uint { values, .. } => {
                values.iter().flat_map(|v| v.to_le_bytes()).collect()
            }
        }
    }
}

/// How a texture handle reaches a `uniform` command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandleForm {
    /// glUniformHandleui64ARB.
    Handle,
    /// glUniform2ui(low, high).
    Uvec2,
    /// glUniform1ui64ARB.
    Uint64,
}

/// Where a probe looks.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ProbeRegion {
    Pixel {
        x: i32,
        y: i32,
    },
    /// Fractions of the window; the pixel probed is (x·W, y·H) truncated.
    Relative {
        x: f32,
        y: f32,
    },
    /// Fractions of the window: the rectangle (x·W, y·H, w·W, h·H) truncated.
    RelativeRect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
    },
    All,
}

/// A colour probe.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Probe {
    pub region: ProbeRegion,
    pub expected: [f32; 4],
    /// `rgba` probes compare alpha too; `rgb` ones ignore it.
    pub alpha: bool,
}

/// A texture image a `texture` command creates.
#[derive(Clone, Debug, PartialEq)]
pub enum TextureKind {
    Rgbw,
    Checkerboard { level: i32, colors: [[f32; 4]; 2] },
    MipLevels,
}

/// A `texparameter` value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TexParamValue {
    Enum(u32),
    Int(i32),
    Float(f32),
    Color([f32; 4]),
}

/// One `[test]` command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ClearColor([f32; 4]),
    ClearDepth(f64),
    Clear,
    Enable(u32),
    Disable(u32),
    DepthFunc(u32),
    DepthMask(bool),
    /// glClearStencil(s) and glClear(GL_STENCIL_BUFFER_BIT).
    ClearStencil(i32),
    StencilFunc {
        face: u32,
        func: u32,
        reference: i32,
        mask: u32,
    },
    StencilOp {
        face: u32,
        sfail: u32,
        dpfail: u32,
        dppass: u32,
    },
    StencilMask {
        face: u32,
        mask: u32,
    },
    BlendFunc {
        src_rgb: u32,
        dst_rgb: u32,
        src_alpha: u32,
        dst_alpha: u32,
    },
    BlendEquation {
        rgb: u32,
        alpha: u32,
    },
    BlendColor([f32; 4]),
    ColorMask([bool; 4]),
    Scissor([i32; 4]),
    Viewport([i32; 4]),
    CullFace(u32),
    FrontFace(u32),
    ProvokingVertex(u32),
    /// glPatchParameteri(GL_PATCH_VERTICES, n).
    PatchVertices(i32),
    /// glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL or _INNER_LEVEL, levels).
    PatchDefaultLevel {
        outer: bool,
        levels: Vec<f32>,
    },
    DrawRect {
        ortho: bool,
        instances: Option<i32>,
        rect: [f32; 4],
    },
    DrawArrays {
        mode: u32,
        first: i32,
        count: i32,
        instances: Option<i32>,
    },
    Uniform {
        name: String,
        value: UniformValue,
    },
    UniformHandle {
        name: String,
        unit: u32,
        form: HandleForm,
    },
    Ubo {
        binding: u32,
        offset: usize,
        value: UniformValue,
    },
    UboHandle {
        binding: u32,
        offset: usize,
        unit: u32,
    },
    BlockBinding {
        name: String,
        binding: u32,
    },
    VertexAttribHandle {
        name: String,
        unit: u32,
    },
    Texture {
        unit: u32,
        width: i32,
        height: i32,
        kind: TextureKind,
        internal_format: u32,
    },
    TexParameter {
        /// `GL_TEXTURE_2D`, … (`texparameter 2D …`).
        target: u32,
        pname: u32,
        value: TexParamValue,
    },
    /// `active uniform NAME GL_PNAME VALUE`: glGetActiveUniformsiv(NAME's index, PNAME)
    /// must give VALUE.
    ActiveUniform {
        name: String,
        pname: u32,
        expected: i32,
    },
    ActiveTexture(u32),
    Resident {
        unit: u32,
        resident: bool,
    },
    DeleteTexture(u32),
    Probe(Probe),
    LinkError,
    LinkSuccess,
    /// A shader_runner command this runner does not implement (its prefix): the scene
    /// fails with `unsupported command` before anything is run.
    Unsupported(String),
}

#[derive(Copy, Clone, PartialEq)]
enum Section {
    Require,
    /// A shader of this stage; its text is the last entry of `Script::shaders`.
    Shader(u32),
    VertexData,
    Test,
    /// `[comment]` and friends: ignored text.
    Ignored,
}

/// Sections shader_runner knows that this runner does not run (ARB assembly programs,
/// SPIR-V, specialization constants, geometry layouts of GL_ARB_geometry_shader4, shader
/// include files, element arrays).
const UNSUPPORTED_SECTIONS: &[&str] = &[
    "vertex program",
    "fragment program",
    "geometry layout",
    "shader include",
    "shader include paths",
    "elements",
];

/// The shader stage a section name opens, as in shader_runner.
fn shader_stage(name: &str) -> Option<u32> {
    Some(match name {
        "vertex shader" => enums::VERTEX_SHADER,
        "tessellation control shader" => enums::TESS_CONTROL_SHADER,
        "tessellation evaluation shader" => enums::TESS_EVALUATION_SHADER,
        "geometry shader" => enums::GEOMETRY_SHADER,
        "fragment shader" => enums::FRAGMENT_SHADER,
        "compute shader" => enums::COMPUTE_SHADER,
        _ => return None,
    })
}

/// Parses a `.shader_test` file.
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let mut script = Script::default();
    let mut section: Option<Section> = None;
    let mut seen: Vec<String> = Vec::new();
    let mut data_rows: Vec<(usize, String)> = Vec::new();
    let mut data_header: Option<(usize, String)> = None;

    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            let name = trimmed[1..trimmed.len() - 1].trim().to_string();
            let stage = shader_stage(&name);
            if stage.is_none() && seen.contains(&name) {
                return Err(ParseError::DuplicateSection { line, name });
            }
            section = Some(match name.as_str() {
                "require" => Section::Require,
                "vertex shader passthrough" => {
                    script.shaders.push(ShaderSection::VertexPassthrough);
                    Section::Ignored
                }
                "vertex data" => Section::VertexData,
                "test" => Section::Test,
                "comment" => Section::Ignored,
                n if UNSUPPORTED_SECTIONS.contains(&n)
                    || n.ends_with(" spirv")
                    || n.ends_with(" specializations") =>
                {
                    return Err(ParseError::Unsupported {
                        line,
                        what: format!("[{n}]"),
                    })
                }
                _ => match stage {
                    Some(stage) => {
                        script.shaders.push(ShaderSection::Source {
                            stage,
                            text: String::new(),
                        });
                        Section::Shader(stage)
                    }
                    None => return Err(ParseError::UnknownSection { line, name }),
                },
            });
            seen.push(name);
            continue;
        }
        if let Some(Section::Shader(_)) = section {
            if let Some(ShaderSection::Source { text, .. }) = script.shaders.last_mut() {
                text.push_str(raw);
                text.push('\n');
            }
            continue;
        }
        let content = strip_comment(trimmed);
        if content.is_empty() {
            continue;
        }
        match section {
            // shader_runner ignores text before the first section (a leading comment block
            // without `#` is common in piglit's files).
            None => {}
            Some(Section::Require) => match parse_requirement(line, content)? {
                RequireLine::Requirement(r @ Requirement::Gl(..))
                    if content.split_whitespace().nth(1) == Some("COMPAT") =>
                {
                    script.compat_profile = true;
                    script.requirements.push(r);
                }
                RequireLine::Requirement(r) => script.requirements.push(r),
                RequireLine::WindowSize(w, h) => script.window_size = Some((w, h)),
                RequireLine::Nothing => {}
            },
            Some(Section::VertexData) => {
                if data_header.is_none() {
                    data_header = Some((line, content.to_string()));
                } else {
                    data_rows.push((line, content.to_string()));
                }
            }
            Some(Section::Test) => script.commands.push(Line {
                line,
                // Kept in place: the runner reports it once the requirements are met (an
                // unmet one skips the scene first, as in shader_runner).
                item: match parse_command(line, content) {
                    Err(ParseError::Unsupported { what, .. }) => Command::Unsupported(what),
                    other => other?,
                },
            }),
            Some(Section::Ignored) | Some(Section::Shader(_)) => {}
        }
    }
    if let Some((line, header)) = data_header {
        script.vertex_data = Some(parse_vertex_data(line, &header, &data_rows)?);
    }
    Ok(script)
}

fn strip_comment(s: &str) -> &str {
    match s.find('#') {
        Some(i) => s[..i].trim(),
        None => s,
    }
}

/// A pass-through vertex shader in the fragment shader's GLSL version: `#version 130` and
/// later use `in`, earlier versions `attribute` (GLSL 1.30 §4.3.4 made `in` the form).
pub fn passthrough_vertex_shader(fragment_source: &str) -> String {
    let version_line = fragment_source
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("#version"));
    let number = version_line
        .and_then(|l| l.trim_start_matches("#version").split_whitespace().next())
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(110);
    let header = version_line
        .map(str::to_string)
        .unwrap_or_else(|| "#version 110".into());
    let decl = if number >= 130 { "in" } else { "attribute" };
    format!("{header}\n{decl} vec4 piglit_vertex;\nvoid main()\n{{\n\tgl_Position = piglit_vertex;\n}}\n")
}

/// What a `[require]` line asks: a requirement, the window size, or nothing softgl checks.
enum RequireLine {
    Requirement(Requirement),
    WindowSize(u32, u32),
    /// `depthbuffer` (softgl's window always has one), `rlimit N`, `SPIRV NO`.
    Nothing,
}

/// The `GL_MAX_*` names shader_runner accepts as requirements without the `INT` keyword.
const LIMIT_NAMES: &[&str] = &[
    "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
    "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
    "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
    "GL_MAX_VERTEX_ATTRIBS",
    "GL_MAX_VARYING_COMPONENTS",
    "GL_NUM_PROGRAM_BINARY_FORMATS",
    "GL_SUBGROUP_SIZE_KHR",
];

fn parse_requirement(line: usize, text: &str) -> Result<RequireLine, ParseError> {
    let bad = || ParseError::BadRequirement {
        line,
        text: text.to_string(),
    };
    let unsupported = |what: &str| ParseError::Unsupported {
        line,
        what: what.to_string(),
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let limit = |name: &str, cmp: &str, value: &str| -> Result<RequireLine, ParseError> {
        Ok(RequireLine::Requirement(Requirement::Limit {
            name: name.to_string(),
            pname: gl_enum_by_name(name).ok_or_else(bad)?,
            cmp: Cmp::parse(cmp).ok_or_else(bad)?,
            value: parse_i32(value).ok_or_else(bad)?,
        }))
    };
    Ok(RequireLine::Requirement(match words.as_slice() {
        ["INT", name, cmp, value] => return limit(name, cmp, value),
        [name, cmp, value] if LIMIT_NAMES.contains(name) => return limit(name, cmp, value),
        [ext] if ext.starts_with("GL_") => Requirement::Extension {
            name: ext.to_string(),
            present: true,
        },
        [ext] if ext.starts_with("!GL_") => Requirement::Extension {
            name: ext[1..].to_string(),
            present: false,
        },
        ["SIZE", w, h] => {
            let dim = |d: &str| parse_u32(d).filter(|v| (1..=16384).contains(v));
            return Ok(RequireLine::WindowSize(
                dim(w).ok_or_else(bad)?,
                dim(h).ok_or_else(bad)?,
            ));
        }
        ["depthbuffer"] | ["rlimit", _] | ["SPIRV", "NO"] => return Ok(RequireLine::Nothing),
        ["SSO", "ENABLED"] => return Err(unsupported("SSO ENABLED")),
        ["SPIRV", ..] => return Err(unsupported("SPIRV")),
        [api, "ES", ..] if *api == "GL" || *api == "GLSL" => Requirement::Es(text.to_string()),
        [api, rest @ ..] if *api == "GL" || *api == "GLSL" => {
            // `GL CORE >= 4.5`, `GL COMPAT >= 3.2`: the profile word is accepted (softgl's
            // contexts run the same pipeline in both profiles).
            let rest = match rest {
                [p, r @ ..] if matches!(*p, "CORE" | "COMPAT") => r,
                r => r,
            };
            let [cmp, ver] = rest else { return Err(bad()) };
            let cmp = Cmp::parse(cmp).ok_or_else(bad)?;
            let v = Version::parse_leading(ver).ok_or_else(bad)?;
            if *api == "GL" {
                Requirement::Gl(cmp, v)
            } else {
                Requirement::Glsl(cmp, v)
            }
        }
        _ => return Err(bad()),
    }))
}

fn parse_vertex_data(
    header_line: usize,
    header: &str,
    rows: &[(usize, String)],
) -> Result<VertexData, ParseError> {
    let mut columns = Vec::new();
    let mut offset = 0usize;
    for col in header.split_whitespace() {
        let bad = || ParseError::BadArgument {
            line: header_line,
            what: "vertex data column (name/type/count)",
            text: col.to_string(),
        };
        let parts: Vec<&str> = col.split('/').collect();
        let [name, ty, count] = parts.as_slice() else {
            return Err(bad());
        };
        let ty = match *ty {
            "float" => AttribType::Float,
            "int" => AttribType::Int,
            "uint" => AttribType::Uint,
            _ => return Err(bad()),
        };
        let count: u8 = match *count {
            "vec2" | "ivec2" | "uvec2" => 2,
            "vec3" | "ivec3" | "uvec3" => 3,
            "vec4" | "ivec4" | "uvec4" => 4,
            n => n.parse().map_err(|_| bad())?,
        };
        if !(1..=4).contains(&count) {
            return Err(bad());
        }
        let target = match name.parse::<u32>() {
            Ok(loc) => AttribTarget::Location(loc),
            Err(_) => AttribTarget::Name(name.to_string()),
        };
        columns.push(Column {
            target,
            ty,
            count,
            offset_bytes: offset,
        });
        offset += 4 * count as usize;
    }
    let want: usize = columns.iter().map(|c| c.count as usize).sum();
    let mut bytes = Vec::with_capacity(rows.len() * offset);
    for (line, row) in rows {
        let words: Vec<&str> = row.split_whitespace().collect();
        if words.len() != want {
            return Err(ParseError::VertexDataWidth {
                line: *line,
                got: words.len(),
                want,
            });
        }
        let mut w = words.iter();
        for col in &columns {
            for _ in 0..col.count {
                let word = w.next().copied().unwrap_or("");
                let bad = || ParseError::BadArgument {
                    line: *line,
                    what: "vertex data value",
                    text: word.to_string(),
                };
                let b = match col.ty {
                    AttribType::Float => parse_f32(word).ok_or_else(bad)?.to_le_bytes(),
                    AttribType::Int => parse_i32(word).ok_or_else(bad)?.to_le_bytes(),
                    AttribType::Uint => parse_u32(word).ok_or_else(bad)?.to_le_bytes(),
                };
                bytes.extend_from_slice(&b);
            }
        }
    }
    Ok(VertexData {
        columns,
        stride_bytes: offset,
        vertices: rows.len(),
        bytes,
    })
}

/// A float: decimal, or `0x…` as the value's IEEE bits (shader_runner's `strtof_hex`,
/// which piglit's generated tests use for exact values).
fn parse_f32(s: &str) -> Option<f32> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        let v = f32::from_bits(u32::from_str_radix(hex, 16).ok()?);
        return Some(if neg { -v } else { v });
    }
    s.parse::<f32>().ok()
}

fn parse_i32(s: &str) -> Option<i32> {
    if let Some(h) = s.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok().map(|v| v as i32);
    }
    s.parse::<i32>().ok()
}

fn parse_u32(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok();
    }
    s.parse::<u32>().ok()
}

/// Command prefixes shader_runner knows that this runner does not implement; a line
/// starting with one is reported as an `unsupported command` naming the prefix. (Lines
/// starting with no known command at all are parse errors, as in shader_runner.)
const UNSUPPORTED_COMMANDS: &[&str] = &[
    "active shader program",
    "atomic counter buffer",
    "atomic counters",
    "atomic counter",
    "blend barrier",
    "blit",
    "block array index",
    "block binding",
    "block matrix stride",
    "block offset",
    "block row major",
    "calllist",
    "clip plane",
    "color",
    "compute",
    "deletelist",
    "draw arrays instanced base",
    "draw elements",
    "draw instanced rect ortho patch",
    "draw rect ortho patch",
    "draw rect patch",
    "draw rect tex",
    "endlist",
    "fb",
    "fbfetch barrier",
    "frustum",
    "hint",
    "image texture",
    "light",
    "memory barrier",
    "multidraw arrays",
    "newlist",
    "ortho",
    "parameter",
    "polygon mode",
    "probe atomic counter",
    "probe depth",
    "probe ssbo",
    "probe warn all rgba",
    "probe xfb buffer",
    "program binary save restore",
    "relative probe rect rgba int",
    "resident image texture",
    "resident texture 1D",
    "shade model",
    "ssbo",
    "subuniform",
    "texcoord",
    "texture integer",
    "texture miptree",
    "texture quads",
    "texture rgbw 1D",
    "texture rgbw 2DArray",
    "texture shadow",
    "texture storage",
    "texture junk",
    "tolerance",
    "ubo array index",
    "verify program_interface_query",
    "verify program_query",
    "verify query_object",
    "viewport indexed",
    "viewport swizzle",
    "xfb buffer object",
    "xfb draw arrays",
];

/// The unsupported-command prefix `words` start with, if any (the longest one).
fn unsupported_prefix(words: &[&str]) -> Option<&'static str> {
    UNSUPPORTED_COMMANDS
        .iter()
        .filter(|p| {
            let pw: Vec<&str> = p.split(' ').collect();
            words.len() >= pw.len() && words[..pw.len()] == pw[..]
        })
        .max_by_key(|p| p.len())
        .copied()
}

/// A GL enum by its `GL_*` name (any enum of gl.xml, as shader_runner accepts).
fn gl_enum(name: &str) -> Option<u32> {
    match name {
        // shader_runner's enable table has these two, which gl.xml lacks (GL_CLIP_PLANE0 + i
        // is GL_CLIP_DISTANCE0 + i).
        "GL_CLIP_PLANE6" => Some(enums::CLIP_DISTANCE6),
        "GL_CLIP_PLANE7" => Some(enums::CLIP_DISTANCE7),
        _ => gl_enum_by_name(name),
    }
}

/// `texparameter`'s texture targets, spelled as shader_runner spells them.
fn tex_target(word: &str) -> Option<u32> {
    Some(match word {
        "1D" => enums::TEXTURE_1D,
        "2D" => enums::TEXTURE_2D,
        "3D" => enums::TEXTURE_3D,
        "Rect" => enums::TEXTURE_RECTANGLE,
        "Cube" => enums::TEXTURE_CUBE_MAP,
        "1DArray" => enums::TEXTURE_1D_ARRAY,
        "2DArray" => enums::TEXTURE_2D_ARRAY,
        "CubeArray" => enums::TEXTURE_CUBE_MAP_ARRAY,
        _ => return None,
    })
}

/// A `texparameter` value word: shader_runner's lower-case word for the parameter
/// (`nearest`, `clamp_to_edge`, `lequal`, `red`, …) or, as softgl's scenes write it, any
/// `GL_*` name.
fn tex_param_word(pname: u32, word: &str) -> Option<u32> {
    if word.starts_with("GL_") {
        return gl_enum(word);
    }
    let filters: &[(&str, u32)] = &[
        ("nearest_mipmap_nearest", enums::NEAREST_MIPMAP_NEAREST),
        ("linear_mipmap_nearest", enums::LINEAR_MIPMAP_NEAREST),
        ("nearest_mipmap_linear", enums::NEAREST_MIPMAP_LINEAR),
        ("linear_mipmap_linear", enums::LINEAR_MIPMAP_LINEAR),
        ("nearest", enums::NEAREST),
        ("linear", enums::LINEAR),
    ];
    let table: &[(&str, u32)] = match pname {
        enums::TEXTURE_MIN_FILTER => filters,
        enums::TEXTURE_MAG_FILTER => &filters[4..],
        enums::TEXTURE_WRAP_S | enums::TEXTURE_WRAP_T | enums::TEXTURE_WRAP_R => &[
            ("repeat", enums::REPEAT),
            ("clamp_to_edge", enums::CLAMP_TO_EDGE),
            ("clamp_to_border", enums::CLAMP_TO_BORDER),
            // Not in shader_runner's table; softgl's scenes use them.
            ("mirrored_repeat", enums::MIRRORED_REPEAT),
            ("mirror_clamp_to_edge", enums::MIRROR_CLAMP_TO_EDGE),
        ],
        enums::TEXTURE_COMPARE_FUNC => &[
            ("greater", enums::GREATER),
            ("gequal", enums::GEQUAL),
            ("less", enums::LESS),
            ("lequal", enums::LEQUAL),
            ("equal", enums::EQUAL),
            ("notequal", enums::NOTEQUAL),
            ("never", enums::NEVER),
            ("always", enums::ALWAYS),
        ],
        enums::DEPTH_TEXTURE_MODE => &[
            ("intensity", enums::INTENSITY),
            ("luminance", enums::LUMINANCE),
            ("alpha", enums::ALPHA),
            ("red", enums::RED),
        ],
        enums::TEXTURE_SWIZZLE_R => &[
            ("red", enums::RED),
            ("green", enums::GREEN),
            ("blue", enums::BLUE),
            ("alpha", enums::ALPHA),
        ],
        _ => &[],
    };
    table.iter().find(|(n, _)| *n == word).map(|&(_, v)| v)
}

fn parse_command(line: usize, text: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let unknown = || ParseError::UnknownCommand {
        line,
        text: text.to_string(),
    };
    let bad = |what: &'static str| ParseError::BadArgument {
        line,
        what,
        text: text.to_string(),
    };
    let en = |name: &str| -> Result<u32, ParseError> {
        gl_enum(name).ok_or_else(|| ParseError::UnknownEnum {
            line,
            name: name.to_string(),
        })
    };
    // Numbers after `skip` words, parentheses and commas dropped.
    let nums = |skip: usize| -> Vec<String> { numbers_after(&words, skip) };
    let floats = |skip: usize, n: usize, what: &'static str| -> Result<Vec<f32>, ParseError> {
        let v = nums(skip);
        if v.len() != n {
            return Err(bad(what));
        }
        v.iter()
            .map(|s| parse_f32(s).ok_or_else(|| bad(what)))
            .collect()
    };
    let ints = |skip: usize, n: usize, what: &'static str| -> Result<Vec<i32>, ParseError> {
        let v = nums(skip);
        if v.len() != n {
            return Err(bad(what));
        }
        v.iter()
            .map(|s| parse_i32(s).ok_or_else(|| bad(what)))
            .collect()
    };
    let unit_at = |i: usize| -> Result<u32, ParseError> {
        words
            .get(i)
            .and_then(|w| parse_u32(w))
            .ok_or_else(|| bad("texture unit"))
    };

    let w = |i: usize| words.get(i).copied().unwrap_or("");
    // softgl's own commands that share a first word with a shader_runner one it lacks.
    let softgl_own = matches!((w(0), w(1)), ("color", "mask"))
        || (w(0), w(1)) == ("block", "binding") && parse_u32(w(2)).is_none();
    if !softgl_own {
        if let Some(prefix) = unsupported_prefix(&words) {
            return Err(ParseError::Unsupported {
                line,
                what: prefix.to_string(),
            });
        }
    }
    Ok(match (w(0), w(1)) {
        ("clear", "color") => Command::ClearColor(arr4(&floats(2, 4, "colour")?)),
        ("clear", "depth") => Command::ClearDepth(floats(2, 1, "depth")?[0] as f64),
        ("clear", "") => Command::Clear,
        ("enable", cap) if words.len() == 2 => Command::Enable(en(cap)?),
        ("disable", cap) if words.len() == 2 => Command::Disable(en(cap)?),
        ("depthfunc", f) if words.len() == 2 => Command::DepthFunc(en(f)?),
        ("depth", "mask") => Command::DepthMask(ints(2, 1, "depth mask")?[0] != 0),
        ("clear", "stencil") => Command::ClearStencil(ints(2, 1, "stencil value")?[0]),
        ("stencil", "func") if words.len() == 6 => Command::StencilFunc {
            face: en(w(2))?,
            func: en(w(3))?,
            reference: parse_i32(w(4)).ok_or_else(|| bad("stencil reference"))?,
            mask: parse_u32(w(5)).ok_or_else(|| bad("stencil value mask"))?,
        },
        ("stencil", "op") if words.len() == 6 => Command::StencilOp {
            face: en(w(2))?,
            sfail: en(w(3))?,
            dpfail: en(w(4))?,
            dppass: en(w(5))?,
        },
        ("stencil", "mask") if words.len() == 4 => Command::StencilMask {
            face: en(w(2))?,
            mask: parse_u32(w(3)).ok_or_else(|| bad("stencil write mask"))?,
        },
        ("blend", "func") => match words.len() {
            4 => {
                let (s, d) = (en(w(2))?, en(w(3))?);
                Command::BlendFunc {
                    src_rgb: s,
                    dst_rgb: d,
                    src_alpha: s,
                    dst_alpha: d,
                }
            }
            6 => Command::BlendFunc {
                src_rgb: en(w(2))?,
                dst_rgb: en(w(3))?,
                src_alpha: en(w(4))?,
                dst_alpha: en(w(5))?,
            },
            _ => return Err(bad("blend factors")),
        },
        ("blend", "equation") => match words.len() {
            3 => {
                let m = en(w(2))?;
                Command::BlendEquation { rgb: m, alpha: m }
            }
            4 => Command::BlendEquation {
                rgb: en(w(2))?,
                alpha: en(w(3))?,
            },
            _ => return Err(bad("blend equation")),
        },
        ("blend", "color") => Command::BlendColor(arr4(&floats(2, 4, "colour")?)),
        ("color", "mask") => {
            let m = ints(2, 4, "colour mask")?;
            Command::ColorMask([m[0] != 0, m[1] != 0, m[2] != 0, m[3] != 0])
        }
        ("scissor", _) => Command::Scissor(arr4i(&ints(1, 4, "scissor box")?)),
        ("viewport", _) => Command::Viewport(arr4i(&ints(1, 4, "viewport")?)),
        ("cull", "face") if words.len() == 3 => Command::CullFace(en(w(2))?),
        ("front", "face") if words.len() == 3 => Command::FrontFace(en(w(2))?),
        ("provoking", "vertex") if words.len() == 3 => Command::ProvokingVertex(match w(2) {
            // shader_runner's spelling.
            "first" => enums::FIRST_VERTEX_CONVENTION,
            "last" => enums::LAST_VERTEX_CONVENTION,
            name => en(name)?,
        }),
        ("patch", "parameter") if w(2) == "vertices" && words.len() == 4 => {
            Command::PatchVertices(ints(3, 1, "patch vertices")?[0])
        }
        ("patch", "parameter") if w(2) == "default" && w(3) == "level" => {
            let outer = match w(4) {
                "outer" => true,
                "inner" => false,
                _ => return Err(bad("`outer' or `inner'")),
            };
            let levels = floats(5, if outer { 4 } else { 2 }, "tessellation levels")?;
            Command::PatchDefaultLevel { outer, levels }
        }
        ("frontface", "cw") if words.len() == 2 => Command::FrontFace(enums::CW),
        ("frontface", "ccw") if words.len() == 2 => Command::FrontFace(enums::CCW),
        ("draw", "rect") => {
            let ortho = w(2) == "ortho";
            let skip = if ortho { 3 } else { 2 };
            Command::DrawRect {
                ortho,
                instances: None,
                rect: arr4(&floats(skip, 4, "rectangle")?),
            }
        }
        ("draw", "instanced") if w(2) == "rect" => {
            let ortho = w(3) == "ortho";
            let skip = if ortho { 4 } else { 3 };
            let v = floats(skip, 5, "instance count and rectangle")?;
            if v[0] < 0.0 || v[0].fract() != 0.0 {
                return Err(bad("instance count"));
            }
            Command::DrawRect {
                ortho,
                instances: Some(v[0] as i32),
                rect: arr4(&v[1..]),
            }
        }
        ("draw", "arrays") => {
            let instanced = w(2) == "instanced";
            let mode_at = if instanced { 3 } else { 2 };
            // Any mode: whether the driver draws it is glDrawArrays' business, as in
            // shader_runner.
            let mode = en(w(mode_at))?;
            let n = if instanced { 3 } else { 2 };
            let v = ints(mode_at + 1, n, "first/count/instances")?;
            Command::DrawArrays {
                mode,
                first: v[0],
                count: v[1],
                instances: if instanced { Some(v[2]) } else { None },
            }
        }
        ("uniform", "handle" | "handle-uvec2" | "handle-uint64") => {
            if words.len() != 4 {
                return Err(bad("handle uniform (NAME UNIT)"));
            }
            let form = match w(1) {
                "handle" => HandleForm::Handle,
                "handle-uvec2" => HandleForm::Uvec2,
                _ => HandleForm::Uint64,
            };
            Command::UniformHandle {
                name: w(2).to_string(),
                unit: unit_at(3)?,
                form,
            }
        }
        ("uniform", ty) => {
            if words.len() < 4 {
                return Err(bad("uniform (TYPE NAME VALUES)"));
            }
            // Types shader_runner sets through entry points softgl's API lacks
            // (ARB_gpu_shader_fp64, ARB_gpu_shader_int64).
            if [
                "double", "int64_t", "uint64_t", "dvec", "dmat", "i64vec", "u64vec",
            ]
            .iter()
            .any(|p| ty.starts_with(p))
            {
                return Err(ParseError::Unsupported {
                    line,
                    what: format!("uniform {ty}"),
                });
            }
            let value = parse_uniform_value(ty, &nums(3)).ok_or_else(|| bad("uniform values"))?;
            Command::Uniform {
                name: w(2).to_string(),
                value,
            }
        }
        ("ubo", _) => {
            let binding = parse_u32(w(1)).ok_or_else(|| bad("ubo binding"))?;
            let offset = parse_u32(w(2)).ok_or_else(|| bad("ubo offset"))? as usize;
            if w(3) == "handle" {
                if words.len() != 5 {
                    return Err(bad("ubo handle (BINDING OFFSET handle UNIT)"));
                }
                Command::UboHandle {
                    binding,
                    offset,
                    unit: unit_at(4)?,
                }
            } else {
                let value = parse_uniform_value(w(3), &nums(4)).ok_or_else(|| bad("ubo values"))?;
                if matches!(value, UniformValue::Matrix { .. }) {
                    // std140 pads matrix columns (GL 4.5 core §7.6.2.2 rule 5): write columns
                    // as vec4s at their offsets instead.
                    return Err(bad("ubo type (matrices: write the columns as vectors)"));
                }
                Command::Ubo {
                    binding,
                    offset,
                    value,
                }
            }
        }
        ("block", "binding") => {
            if words.len() != 4 {
                return Err(bad("block binding (NAME BINDING)"));
            }
            let binding = parse_u32(w(3)).ok_or_else(|| bad("block binding"))?;
            Command::BlockBinding {
                name: w(2).to_string(),
                binding,
            }
        }
        ("vertex", "attrib") if w(2) == "handle" => {
            if words.len() != 5 {
                return Err(bad("vertex attrib handle (NAME UNIT)"));
            }
            Command::VertexAttribHandle {
                name: w(3).to_string(),
                unit: unit_at(4)?,
            }
        }
        ("texture", kind @ ("rgbw" | "checkerboard" | "miplevels")) => {
            parse_texture(line, text, kind, &words)?
        }
        ("texparameter", target) => {
            let target = tex_target(target).ok_or_else(|| bad("texture target"))?;
            let v = w(3);
            let f = |what| parse_f32(v).ok_or_else(|| bad(what));
            let i = |what| parse_i32(v).ok_or_else(|| bad(what));
            let pname = match w(2) {
                "min" => enums::TEXTURE_MIN_FILTER,
                "mag" => enums::TEXTURE_MAG_FILTER,
                "wrap_s" => enums::TEXTURE_WRAP_S,
                "wrap_t" => enums::TEXTURE_WRAP_T,
                "wrap_r" => enums::TEXTURE_WRAP_R,
                "compare_func" => enums::TEXTURE_COMPARE_FUNC,
                "depth_mode" => enums::DEPTH_TEXTURE_MODE,
                "swizzle_r" => enums::TEXTURE_SWIZZLE_R,
                "border_color" => enums::TEXTURE_BORDER_COLOR,
                "lod_bias" => enums::TEXTURE_LOD_BIAS,
                "min_lod" => enums::TEXTURE_MIN_LOD,
                "max_lod" => enums::TEXTURE_MAX_LOD,
                "base_level" => enums::TEXTURE_BASE_LEVEL,
                "max_level" => enums::TEXTURE_MAX_LEVEL,
                _ => return Err(bad("texture parameter")),
            };
            let value = match pname {
                enums::TEXTURE_BORDER_COLOR => {
                    TexParamValue::Color(arr4(&floats(3, 4, "border colour")?))
                }
                enums::TEXTURE_LOD_BIAS => TexParamValue::Float(f("lod bias")?),
                enums::TEXTURE_MIN_LOD => TexParamValue::Float(f("min lod")?),
                enums::TEXTURE_MAX_LOD => TexParamValue::Float(f("max lod")?),
                enums::TEXTURE_BASE_LEVEL => TexParamValue::Int(i("base level")?),
                enums::TEXTURE_MAX_LEVEL => TexParamValue::Int(i("max level")?),
                _ => TexParamValue::Enum(tex_param_word(pname, v).ok_or_else(|| {
                    ParseError::UnknownEnum {
                        line,
                        name: v.to_string(),
                    }
                })?),
            };
            if pname != enums::TEXTURE_BORDER_COLOR && words.len() != 4 {
                return Err(bad("texture parameter value"));
            }
            Command::TexParameter {
                target,
                pname,
                value,
            }
        }
        ("active", "uniform") => {
            if words.len() != 5 {
                return Err(bad("active uniform (NAME GL_PNAME VALUE)"));
            }
            let expected = match parse_i32(w(4)) {
                Some(v) => v,
                None => en(w(4))? as i32,
            };
            Command::ActiveUniform {
                name: w(2).to_string(),
                pname: en(w(3))?,
                expected,
            }
        }
        ("active", "texture") if words.len() == 3 => Command::ActiveTexture(unit_at(2)?),
        ("resident", "texture") if words.len() == 3 => Command::Resident {
            unit: unit_at(2)?,
            resident: true,
        },
        ("nonresident", "texture") if words.len() == 3 => Command::Resident {
            unit: unit_at(2)?,
            resident: false,
        },
        ("delete", "texture") if words.len() == 3 => Command::DeleteTexture(unit_at(2)?),
        ("probe", _) | ("relative", "probe") => parse_probe(line, text, &words)?,
        ("link", "error") if words.len() == 2 => Command::LinkError,
        ("link", "success") if words.len() == 2 => Command::LinkSuccess,
        _ => return Err(unknown()),
    })
}

/// The number words after `skip` words, with `(`, `)` and `,` treated as spaces.
fn numbers_after(words: &[&str], skip: usize) -> Vec<String> {
    words
        .iter()
        .skip(skip)
        .flat_map(|w| {
            w.replace(['(', ')', ','], " ")
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn arr4(v: &[f32]) -> [f32; 4] {
    [v[0], v[1], v[2], v[3]]
}

fn arr4i(v: &[i32]) -> [i32; 4] {
    [v[0], v[1], v[2], v[3]]
}

/// Values for a GLSL type name; the count must be a whole number of elements (arrays set
/// several elements at once).
fn parse_uniform_value(ty: &str, words: &[String]) -> Option<UniformValue> {
    let n = words.len();
    let vec_comps = |base: &str| -> Option<u8> {
        let rest = ty.strip_prefix(base)?;
        match rest.parse::<u8>() {
            Ok(c @ 2..=4) => Some(c),
            _ => None,
        }
    };
    let whole = |comps: usize| n > 0 && n.is_multiple_of(comps);
    if ty == "float" || vec_comps("vec").is_some() {
        let comps = vec_comps("vec").unwrap_or(1);
        if !whole(comps as usize) {
            return None;
        }
        let values = words
            .iter()
            .map(|s| parse_f32(s))
            .collect::<Option<Vec<_>>>()?;
        return Some(UniformValue::Float { comps, values });
    }
    if ty == "int" || vec_comps("ivec").is_some() || ty == "bool" || vec_comps("bvec").is_some() {
        let comps = vec_comps("ivec").or_else(|| vec_comps("bvec")).unwrap_or(1);
        if !whole(comps as usize) {
            return None;
        }
        let values = words
            .iter()
            .map(|s| match s.as_str() {
                "true" => Some(1),
                "false" => Some(0),
                s => parse_i32(s),
            })
            .collect::<Option<Vec<_>>>()?;
        return Some(UniformValue::Int { comps, values });
    }
    if ty == "uint" || vec_comps("uvec").is_some() {
        let comps = vec_comps("uvec").unwrap_or(1);
        if !whole(comps as usize) {
            return None;
        }
        let values = words
            .iter()
            .map(|s| parse_u32(s))
            .collect::<Option<Vec<_>>>()?;
        return Some(UniformValue::Uint { comps, values });
    }
    let dims = ty.strip_prefix("mat")?;
    let (cols, rows) = match dims.split_once('x') {
        Some((c, r)) => (c.parse::<u8>().ok()?, r.parse::<u8>().ok()?),
        None => {
            let d = dims.parse::<u8>().ok()?;
            (d, d)
        }
    };
    if !(2..=4).contains(&cols) || !(2..=4).contains(&rows) || !whole(cols as usize * rows as usize)
    {
        return None;
    }
    let values = words
        .iter()
        .map(|s| parse_f32(s))
        .collect::<Option<Vec<_>>>()?;
    Some(UniformValue::Matrix { cols, rows, values })
}

fn parse_texture(
    line: usize,
    text: &str,
    kind: &str,
    words: &[&str],
) -> Result<Command, ParseError> {
    let bad = |what: &'static str| ParseError::BadArgument {
        line,
        what,
        text: text.to_string(),
    };
    let unit = words
        .get(2)
        .and_then(|w| parse_u32(w))
        .ok_or_else(|| bad("texture unit"))?;
    // An optional trailing GL_* internal format.
    let (words, internal_format) = match words.last() {
        Some(last) if last.starts_with("GL_") => {
            if kind == "miplevels" {
                return Err(bad("format (miplevels textures are GL_RGBA8)"));
            }
            let f = gl_enum(last).ok_or_else(|| ParseError::UnknownEnum {
                line,
                name: last.to_string(),
            })?;
            (&words[..words.len() - 1], f)
        }
        _ => (words, enums::RGBA8),
    };
    let skip = if kind == "checkerboard" { 4 } else { 3 };
    let nums: Vec<f32> = numbers_after(words, skip)
        .iter()
        .map(|s| parse_f32(s))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("texture size or colours"))?;
    let want = if kind == "checkerboard" { 10 } else { 2 };
    if nums.len() != want {
        return Err(bad("texture size or colours"));
    }
    let (width, height) = (nums[0], nums[1]);
    if width < 1.0 || height < 1.0 || width.fract() != 0.0 || height.fract() != 0.0 {
        return Err(bad("texture size"));
    }
    let kind = match kind {
        "rgbw" => TextureKind::Rgbw,
        "miplevels" => TextureKind::MipLevels,
        _ => {
            let level = words
                .get(3)
                .and_then(|w| parse_i32(w))
                .ok_or_else(|| bad("level"))?;
            if level < 0 {
                return Err(bad("level"));
            }
            TextureKind::Checkerboard {
                level,
                colors: [arr4(&nums[2..6]), arr4(&nums[6..10])],
            }
        }
    };
    Ok(Command::Texture {
        unit,
        width: width as i32,
        height: height as i32,
        kind,
        internal_format,
    })
}

fn parse_probe(line: usize, text: &str, words: &[&str]) -> Result<Command, ParseError> {
    let bad = |what: &'static str| ParseError::BadArgument {
        line,
        what,
        text: text.to_string(),
    };
    let (relative, rest) = match words {
        ["relative", "probe", rest @ ..] => (true, rest),
        ["probe", rest @ ..] => (false, rest),
        _ => return Err(bad("probe")),
    };
    let (shape, rest) = match rest {
        ["all", rest @ ..] if !relative => ("all", rest),
        ["rect", rest @ ..] => ("rect", rest),
        rest => ("pixel", rest),
    };
    let (alpha, rest) = match rest {
        ["rgb", rest @ ..] => (false, rest),
        ["rgba", rest @ ..] => (true, rest),
        _ => return Err(bad("probe kind (rgb or rgba)")),
    };
    let nums: Vec<f32> = numbers_after(rest, 0)
        .iter()
        .map(|s| parse_f32(s))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("probe numbers"))?;
    let channels = if alpha { 4 } else { 3 };
    let coords = match shape {
        "all" => 0,
        "rect" => 4,
        _ => 2,
    };
    if nums.len() != coords + channels {
        return Err(bad("probe numbers"));
    }
    let int = |v: f32| -> Result<i32, ParseError> {
        if v.fract() == 0.0 && v.abs() < 1.0e6 {
            Ok(v as i32)
        } else {
            Err(bad("probe coordinate"))
        }
    };
    let region = match shape {
        "all" => ProbeRegion::All,
        "rect" if relative => ProbeRegion::RelativeRect {
            x: nums[0],
            y: nums[1],
            w: nums[2],
            h: nums[3],
        },
        "rect" => ProbeRegion::Rect {
            x: int(nums[0])?,
            y: int(nums[1])?,
            w: int(nums[2])?,
            h: int(nums[3])?,
        },
        _ if relative => ProbeRegion::Relative {
            x: nums[0],
            y: nums[1],
        },
        _ => ProbeRegion::Pixel {
            x: int(nums[0])?,
            y: int(nums[1])?,
        },
    };
    let c = &nums[coords..];
    let expected = [c[0], c[1], c[2], if alpha { c[3] } else { 1.0 }];
    Ok(Command::Probe(Probe {
        region,
        expected,
        alpha,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(text: &str) -> Command {
        let s = parse(&format!("[test]\n{text}\n")).unwrap();
        s.commands[0].item.clone()
    }

    #[test]
    fn sections_and_requirements() {
        let s = parse(
            "[require]\nGL >= 3.3\nGLSL >= 1.30 # comment\nGL_ARB_bindless_texture\n!GL_EXT_foo\n\
             GL CORE >= 4.5\n\n[vertex shader passthrough]\n[fragment shader]\n#version 330\n\
             out vec4 c;\nvoid main() { c = vec4(1); }\n[test]\nclear color 0 0 0 1\nclear\n",
        )
        .unwrap();
        assert_eq!(
            s.requirements,
            vec![
                Requirement::Gl(
                    Cmp::Ge,
                    Version {
                        major: 3,
                        minor: 30
                    }
                ),
                Requirement::Glsl(
                    Cmp::Ge,
                    Version {
                        major: 1,
                        minor: 30
                    }
                ),
                Requirement::Extension {
                    name: "GL_ARB_bindless_texture".into(),
                    present: true
                },
                Requirement::Extension {
                    name: "GL_EXT_foo".into(),
                    present: false
                },
                Requirement::Gl(
                    Cmp::Ge,
                    Version {
                        major: 4,
                        minor: 50
                    }
                ),
            ]
        );
        // The shader keeps its `#version` line: `#` is no comment there.
        let sources = s.shader_sources();
        assert_eq!(sources.len(), 2);
        assert_eq!(sources[1].0, enums::FRAGMENT_SHADER);
        assert!(sources[1].1.starts_with("#version 330\n"));
        assert_eq!(s.shaders[0], ShaderSection::VertexPassthrough);
        // The pass-through shader is written in the GLSL requirement's version, as
        // shader_runner writes it.
        assert_eq!(sources[0].0, enums::VERTEX_SHADER);
        assert!(sources[0]
            .1
            .starts_with("#version 130\n#if __VERSION__ >= 130\nin vec4 piglit_vertex;"));
        assert_eq!(s.commands.len(), 2);
        assert_eq!(
            s.commands[1],
            Line {
                line: 15,
                item: Command::Clear
            }
        );
    }

    #[test]
    fn passthrough_follows_fragment_version() {
        assert!(
            passthrough_vertex_shader("#version 450 core\nvoid main(){}")
                .starts_with("#version 450 core\nin vec4")
        );
        assert!(
            passthrough_vertex_shader("#version 120\n").contains("attribute vec4 piglit_vertex")
        );
        assert!(passthrough_vertex_shader("void main(){}").starts_with("#version 110\nattribute"));
    }

    #[test]
    fn versions_normalize_and_compare() {
        let v = |s| Version::parse_leading(s).unwrap();
        assert_eq!(v("4.5 (Core Profile) softgl"), v("4.50"));
        assert!(Cmp::Ge.holds(v("4.50"), v("1.30")));
        assert!(!Cmp::Ge.holds(v("3.3"), v("4.0")));
        assert!(Cmp::Lt.holds(v("1.10"), v("1.30")));
        assert_eq!(Version::parse_leading("four"), None);
        assert_eq!(v("4.60").to_string(), "4.60");
    }

    #[test]
    fn probes_accept_both_spellings() {
        let a = cmd("probe rgb 1 2 0 1 0");
        let b = cmd("probe rgb (1, 2) (0, 1, 0)");
        assert_eq!(a, b);
        assert_eq!(
            a,
            Command::Probe(Probe {
                region: ProbeRegion::Pixel { x: 1, y: 2 },
                expected: [0.0, 1.0, 0.0, 1.0],
                alpha: false
            })
        );
        assert_eq!(
            cmd("relative probe rgba (0.25, 0.75) (1.0, 0.5, 0.0, 0.5)"),
            Command::Probe(Probe {
                region: ProbeRegion::Relative { x: 0.25, y: 0.75 },
                expected: [1.0, 0.5, 0.0, 0.5],
                alpha: true
            })
        );
        assert_eq!(
            cmd("probe rect rgb (0, 0, 10, 20) (1, 0, 0)"),
            Command::Probe(Probe {
                region: ProbeRegion::Rect {
                    x: 0,
                    y: 0,
                    w: 10,
                    h: 20
                },
                expected: [1.0, 0.0, 0.0, 1.0],
                alpha: false
            })
        );
        assert_eq!(
            cmd("probe all rgba 0 0 0 0"),
            Command::Probe(Probe {
                region: ProbeRegion::All,
                expected: [0.0; 4],
                alpha: true
            })
        );
    }

    #[test]
    fn bad_probes_are_errors() {
        for bad in [
            "probe rgb 1 2 0 1",
            "probe rgba 1 2 0 1 0",
            "probe rgb 1.5 2 0 1 0",
            "probe xyz 1 1 1 1 1",
        ] {
            assert!(
                matches!(
                    parse(&format!("[test]\n{bad}\n")),
                    Err(ParseError::BadArgument { line: 2, .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn draws() {
        assert_eq!(
            cmd("draw rect -1 -1 2 2"),
            Command::DrawRect {
                ortho: false,
                instances: None,
                rect: [-1.0, -1.0, 2.0, 2.0]
            }
        );
        assert_eq!(
            cmd("draw rect ortho 0 0 10 10"),
            Command::DrawRect {
                ortho: true,
                instances: None,
                rect: [0.0, 0.0, 10.0, 10.0]
            }
        );
        assert_eq!(
            cmd("draw instanced rect 4 -1 -1 2 2"),
            Command::DrawRect {
                ortho: false,
                instances: Some(4),
                rect: [-1.0, -1.0, 2.0, 2.0]
            }
        );
        assert_eq!(
            cmd("draw arrays GL_TRIANGLE_FAN 0 4"),
            Command::DrawArrays {
                mode: enums::TRIANGLE_FAN,
                first: 0,
                count: 4,
                instances: None
            }
        );
        assert_eq!(
            cmd("draw arrays instanced GL_TRIANGLES 0 3 2"),
            Command::DrawArrays {
                mode: enums::TRIANGLES,
                first: 0,
                count: 3,
                instances: Some(2)
            }
        );
        // Any mode parses, as in shader_runner; glDrawArrays judges it.
        assert!(parse("[test]\ndraw arrays GL_POINTS 0 3\n").is_ok());
        assert!(parse("[test]\ndraw arrays GL_NOT_A_MODE 0 3\n").is_err());
    }

    #[test]
    fn uniforms() {
        assert_eq!(
            cmd("uniform vec4 color 1 0 0.5 1"),
            Command::Uniform {
                name: "color".into(),
                value: UniformValue::Float {
                    comps: 4,
                    values: vec![1.0, 0.0, 0.5, 1.0]
                }
            }
        );
        assert_eq!(
            cmd("uniform mat2x3 m 1 2 3 4 5 6"),
            Command::Uniform {
                name: "m".into(),
                value: UniformValue::Matrix {
                    cols: 2,
                    rows: 3,
                    values: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
                }
            }
        );
        assert_eq!(
            cmd("uniform bvec2 b true 0"),
            Command::Uniform {
                name: "b".into(),
                value: UniformValue::Int {
                    comps: 2,
                    values: vec![1, 0]
                }
            }
        );
        assert_eq!(
            cmd("uniform uint u 0xffffffff"),
            Command::Uniform {
                name: "u".into(),
                value: UniformValue::Uint {
                    comps: 1,
                    values: vec![u32::MAX]
                }
            }
        );
        // Two vec2 array elements at once.
        assert!(matches!(
            cmd("uniform vec2 a[0] 1 2 3 4"),
            Command::Uniform { .. }
        ));
        assert!(parse("[test]\nuniform vec3 v 1 2\n").is_err());
        assert!(parse("[test]\nuniform mat3 m 1 2 3\n").is_err());
        assert_eq!(
            cmd("uniform dvec2 v 1 2"),
            Command::Unsupported("uniform dvec2".into())
        );
        assert_eq!(
            cmd("uniform handle tex 3"),
            Command::UniformHandle {
                name: "tex".into(),
                unit: 3,
                form: HandleForm::Handle
            }
        );
        assert_eq!(
            cmd("uniform handle-uvec2 h 0"),
            Command::UniformHandle {
                name: "h".into(),
                unit: 0,
                form: HandleForm::Uvec2
            }
        );
    }

    #[test]
    fn ubo_and_attrib_handles() {
        assert_eq!(
            cmd("ubo 1 16 vec2 0.5 0.25"),
            Command::Ubo {
                binding: 1,
                offset: 16,
                value: UniformValue::Float {
                    comps: 2,
                    values: vec![0.5, 0.25]
                }
            }
        );
        assert_eq!(
            cmd("ubo 0 8 handle 2"),
            Command::UboHandle {
                binding: 0,
                offset: 8,
                unit: 2
            }
        );
        assert_eq!(
            cmd("block binding Handles 3"),
            Command::BlockBinding {
                name: "Handles".into(),
                binding: 3
            }
        );
        assert!(parse("[test]\nblock binding Handles\n").is_err());
        assert!(parse("[test]\nubo 0 0 mat2 1 0 0 1\n").is_err());
        assert_eq!(
            cmd("vertex attrib handle tex_attr 1"),
            Command::VertexAttribHandle {
                name: "tex_attr".into(),
                unit: 1
            }
        );
        let bytes = UniformValue::Int {
            comps: 2,
            values: vec![-1, 2],
        }
        .to_le_bytes();
        assert_eq!(bytes, vec![0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0]);
    }

    #[test]
    fn textures() {
        assert_eq!(
            cmd("texture rgbw 1 (8, 4)"),
            Command::Texture {
                unit: 1,
                width: 8,
                height: 4,
                kind: TextureKind::Rgbw,
                internal_format: enums::RGBA8
            }
        );
        assert_eq!(
            cmd("texture checkerboard 0 0 (4, 4) (1, 0, 0, 1) (0, 0, 1, 1) GL_RGBA16F"),
            Command::Texture {
                unit: 0,
                width: 4,
                height: 4,
                kind: TextureKind::Checkerboard {
                    level: 0,
                    colors: [[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]]
                },
                internal_format: enums::RGBA16F
            }
        );
        assert_eq!(
            cmd("texparameter 2D min GL_LINEAR_MIPMAP_LINEAR"),
            Command::TexParameter {
                target: enums::TEXTURE_2D,
                pname: enums::TEXTURE_MIN_FILTER,
                value: TexParamValue::Enum(enums::LINEAR_MIPMAP_LINEAR)
            }
        );
        assert_eq!(
            cmd("texparameter 2D border_color (0, 0, 0, 1)"),
            Command::TexParameter {
                target: enums::TEXTURE_2D,
                pname: enums::TEXTURE_BORDER_COLOR,
                value: TexParamValue::Color([0.0, 0.0, 0.0, 1.0])
            }
        );
        assert_eq!(
            cmd("texparameter 2D lod_bias -1.5"),
            Command::TexParameter {
                target: enums::TEXTURE_2D,
                pname: enums::TEXTURE_LOD_BIAS,
                value: TexParamValue::Float(-1.5)
            }
        );
        assert!(parse("[test]\ntexture rgbw 0 (0, 4)\n").is_err());
        assert!(parse("[test]\ntexture checkerboard 0 0 (4, 4) (1, 0, 0, 1)\n").is_err());
        assert!(parse("[test]\ntexparameter 2D min GL_BOGUS\n").is_err());
        assert_eq!(
            cmd("resident texture 2"),
            Command::Resident {
                unit: 2,
                resident: true
            }
        );
        assert_eq!(cmd("delete texture 2"), Command::DeleteTexture(2));
    }

    #[test]
    fn state_commands() {
        assert_eq!(
            cmd("enable GL_DEPTH_TEST"),
            Command::Enable(enums::DEPTH_TEST)
        );
        assert_eq!(
            cmd("depthfunc GL_GEQUAL"),
            Command::DepthFunc(enums::GEQUAL)
        );
        assert_eq!(
            cmd("blend func GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA"),
            Command::BlendFunc {
                src_rgb: enums::SRC_ALPHA,
                dst_rgb: enums::ONE_MINUS_SRC_ALPHA,
                src_alpha: enums::SRC_ALPHA,
                dst_alpha: enums::ONE_MINUS_SRC_ALPHA
            }
        );
        assert_eq!(
            cmd("blend equation GL_MIN GL_FUNC_ADD"),
            Command::BlendEquation {
                rgb: enums::MIN,
                alpha: enums::FUNC_ADD
            }
        );
        assert_eq!(
            cmd("color mask 1 0 1 0"),
            Command::ColorMask([true, false, true, false])
        );
        assert_eq!(
            cmd("scissor 10 20 30 40"),
            Command::Scissor([10, 20, 30, 40])
        );
        assert_eq!(cmd("cull face GL_FRONT"), Command::CullFace(enums::FRONT));
        assert_eq!(cmd("link error"), Command::LinkError);
        assert!(matches!(
            parse("[test]\nfrobnicate\n"),
            Err(ParseError::UnknownCommand { line: 2, .. })
        ));
        assert!(matches!(
            parse("[test]\nenable GL_FOO\n"),
            Err(ParseError::UnknownEnum { .. })
        ));
    }

    #[test]
    fn vertex_data_packs_interleaved() {
        let s = parse(
            "[vertex data]\npiglit_vertex/float/2 id/int/1 3/uint/1\n-1 -1 7 9\n1 -1 -2 10\n",
        )
        .unwrap();
        let d = s.vertex_data.unwrap();
        assert_eq!(d.stride_bytes, 16);
        assert_eq!(d.vertices, 2);
        assert_eq!(d.columns[1].offset_bytes, 8);
        assert_eq!(d.columns[2].target, AttribTarget::Location(3));
        assert_eq!(&d.bytes[8..12], &7i32.to_le_bytes());
        assert_eq!(&d.bytes[24..28], &(-2i32).to_le_bytes());
        assert!(matches!(
            parse("[vertex data]\na/float/2\n1 2 3\n"),
            Err(ParseError::VertexDataWidth {
                line: 3,
                got: 3,
                want: 2
            })
        ));
        assert!(parse("[vertex data]\na/double/2\n").is_err());
    }

    #[test]
    fn structure_errors() {
        // shader_runner skips text before the first section.
        assert!(parse("a comment without a hash\n[test]\nclear\n").is_ok());
        assert!(matches!(
            parse("[frobnicate shader]\n"),
            Err(ParseError::UnknownSection { .. })
        ));
        assert!(matches!(
            parse("[geometry layout]\n"),
            Err(ParseError::Unsupported { line: 1, .. })
        ));
        assert!(matches!(
            parse("[test]\n[test]\n"),
            Err(ParseError::DuplicateSection { .. })
        ));
        assert!(matches!(
            parse("[require]\nGL about 3\n"),
            Err(ParseError::BadRequirement { .. })
        ));
        let s = parse("[fragment shader]\nvoid main(){}\n[test]\nlink error\n").unwrap();
        assert!(s.expects_link_error());
    }

    /// Every scene of the corpus parses (a typo in a scene fails here, naming the file,
    /// before any rendering is involved).
    #[test]
    fn corpus_parses() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/scenes");
        let entries = std::fs::read_dir(&dir).expect("conformance/scenes is missing");
        let mut count = 0;
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) != Some("shader_test") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let s = parse(&text).unwrap_or_else(|err| panic!("{}: {err}", p.display()));
            assert!(
                s.has_stage(enums::FRAGMENT_SHADER),
                "{}: no fragment shader",
                p.display()
            );
            assert!(
                s.has_stage(enums::VERTEX_SHADER),
                "{}: no vertex shader",
                p.display()
            );
            count += 1;
        }
        assert!(
            count >= 40,
            "the corpus has {count} scenes, want at least 40"
        );
    }

    /// shader_runner's spellings: lower-case `texparameter` words for every parameter that
    /// takes one, its targets, `provoking vertex first`, `frontface cw`, any `GL_*` enum, any
    /// draw mode, and hexadecimal float bits.
    #[test]
    fn piglit_spellings() {
        let tp = |text: &str| match cmd(text) {
            Command::TexParameter {
                target,
                pname,
                value: TexParamValue::Enum(v),
            } => (target, pname, v),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            tp("texparameter 2D min nearest"),
            (enums::TEXTURE_2D, enums::TEXTURE_MIN_FILTER, enums::NEAREST)
        );
        assert_eq!(
            tp("texparameter 2D min linear_mipmap_nearest"),
            (
                enums::TEXTURE_2D,
                enums::TEXTURE_MIN_FILTER,
                enums::LINEAR_MIPMAP_NEAREST
            )
        );
        assert_eq!(
            tp("texparameter 2D mag linear").2,
            enums::LINEAR,
            "mag takes the two magnification filters"
        );
        assert!(parse("[test]\ntexparameter 2D mag nearest_mipmap_nearest\n").is_err());
        assert_eq!(
            tp("texparameter 2DArray wrap_s clamp_to_edge"),
            (
                enums::TEXTURE_2D_ARRAY,
                enums::TEXTURE_WRAP_S,
                enums::CLAMP_TO_EDGE
            )
        );
        assert_eq!(tp("texparameter 3D wrap_r repeat").1, enums::TEXTURE_WRAP_R);
        assert_eq!(
            tp("texparameter 2D wrap_t clamp_to_border").2,
            enums::CLAMP_TO_BORDER
        );
        assert_eq!(
            tp("texparameter Rect compare_func lequal"),
            (
                enums::TEXTURE_RECTANGLE,
                enums::TEXTURE_COMPARE_FUNC,
                enums::LEQUAL
            )
        );
        assert_eq!(tp("texparameter Cube swizzle_r green").2, enums::GREEN);
        assert_eq!(tp("texparameter 2D depth_mode red").2, enums::RED);
        // softgl's scenes spell the values as GL names; both work.
        assert_eq!(tp("texparameter 2D min GL_NEAREST").2, enums::NEAREST);
        assert!(matches!(
            parse("[test]\ntexparameter 2D min bogus\n"),
            Err(ParseError::UnknownEnum { .. })
        ));
        assert!(parse("[test]\ntexparameter 4D min nearest\n").is_err());
        assert_eq!(
            cmd("texparameter 2D max_level 3"),
            Command::TexParameter {
                target: enums::TEXTURE_2D,
                pname: enums::TEXTURE_MAX_LEVEL,
                value: TexParamValue::Int(3)
            }
        );

        assert_eq!(
            cmd("provoking vertex first"),
            Command::ProvokingVertex(enums::FIRST_VERTEX_CONVENTION)
        );
        assert_eq!(
            cmd("provoking vertex GL_LAST_VERTEX_CONVENTION"),
            Command::ProvokingVertex(enums::LAST_VERTEX_CONVENTION)
        );
        assert_eq!(cmd("frontface cw"), Command::FrontFace(enums::CW));
        assert_eq!(
            cmd("enable GL_CLIP_PLANE0"),
            Command::Enable(enums::CLIP_DISTANCE0)
        );
        assert_eq!(
            cmd("enable GL_CLIP_PLANE7"),
            Command::Enable(enums::CLIP_DISTANCE7)
        );
        assert_eq!(
            cmd("enable GL_PROGRAM_POINT_SIZE"),
            Command::Enable(enums::PROGRAM_POINT_SIZE)
        );
        assert!(matches!(
            cmd("draw arrays GL_POINTS 0 4"),
            Command::DrawArrays {
                mode: enums::POINTS,
                ..
            }
        ));
        assert_eq!(
            cmd("uniform float f 0x3f800000"),
            Command::Uniform {
                name: "f".into(),
                value: UniformValue::Float {
                    comps: 1,
                    values: vec![1.0]
                }
            }
        );
        assert_eq!(parse_f32("-0x40000000"), Some(-2.0));
        assert_eq!(
            cmd("relative probe rect rgb (0.5, 0.0, 0.5, 1.0) (0, 1, 0)"),
            Command::Probe(Probe {
                region: ProbeRegion::RelativeRect {
                    x: 0.5,
                    y: 0.0,
                    w: 0.5,
                    h: 1.0
                },
                expected: [0.0, 1.0, 0.0, 1.0],
                alpha: false
            })
        );
        assert_eq!(
            cmd("active uniform UB.m GL_UNIFORM_TYPE GL_FLOAT_MAT4"),
            Command::ActiveUniform {
                name: "UB.m".into(),
                pname: enums::UNIFORM_TYPE,
                expected: enums::FLOAT_MAT4 as i32
            }
        );
        assert_eq!(
            cmd("active uniform a GL_UNIFORM_SIZE 4"),
            Command::ActiveUniform {
                name: "a".into(),
                pname: enums::UNIFORM_SIZE,
                expected: 4
            }
        );
    }

    /// Commands and sections shader_runner knows that softgl's runner does not are kept as
    /// `unsupported` (named by their prefix), not parse errors; requirements in
    /// shader_runner's other forms parse.
    #[test]
    fn unsupported_commands_and_requirement_forms() {
        assert_eq!(
            cmd("clip plane 0 0 1 0 0.5"),
            Command::Unsupported("clip plane".into())
        );
        assert_eq!(
            cmd("resident image texture 0 GL_RGBA8"),
            Command::Unsupported("resident image texture".into())
        );
        assert_eq!(cmd("fb tex 2d 0"), Command::Unsupported("fb".into()));
        assert_eq!(
            cmd("uniform double d 1.0"),
            Command::Unsupported("uniform double".into())
        );
        // softgl's own commands that share a first word with an unsupported one.
        assert!(matches!(cmd("color mask 1 1 1 1"), Command::ColorMask(_)));
        assert!(matches!(
            cmd("block binding UB 2"),
            Command::BlockBinding { .. }
        ));
        assert_eq!(
            cmd("block binding 2"),
            Command::Unsupported("block binding".into())
        );

        let s = parse(
            "[require]\nGL COMPAT >= 3.2\nGLSL >= 1.50\nGL_MAX_VERTEX_OUTPUT_COMPONENTS >= 128\n\
             INT GL_MAX_VARYING_COMPONENTS != 0\nSIZE 64 32\ndepthbuffer\nGL ES >= 3.0\n\
             [vertex shader]\nvoid main() {}\n[vertex shader]\nvoid f() {}\n\
             [geometry shader]\nvoid main() {}\n",
        )
        .unwrap();
        assert!(s.compat_profile);
        assert_eq!(s.window_size, Some((64, 32)));
        assert_eq!(
            s.requirements[2],
            Requirement::Limit {
                name: "GL_MAX_VERTEX_OUTPUT_COMPONENTS".into(),
                pname: enums::MAX_VERTEX_OUTPUT_COMPONENTS,
                cmp: Cmp::Ge,
                value: 128
            }
        );
        assert!(matches!(
            s.requirements[3],
            Requirement::Limit { cmp: Cmp::Ne, .. }
        ));
        assert!(matches!(s.requirements[4], Requirement::Es(_)));
        // Two vertex sections are two shader objects; each gets the `#version` of the GLSL
        // requirement as it has none.
        let sources = s.shader_sources();
        assert_eq!(
            sources.iter().map(|(st, _)| *st).collect::<Vec<_>>(),
            [
                enums::VERTEX_SHADER,
                enums::VERTEX_SHADER,
                enums::GEOMETRY_SHADER
            ]
        );
        assert!(sources.iter().all(|(_, t)| t.starts_with("#version 150\n")));
        assert!(matches!(
            parse("[require]\nSSO ENABLED\n"),
            Err(ParseError::Unsupported { .. })
        ));
    }
}
