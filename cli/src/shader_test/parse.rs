//! The `.shader_test` format: text → [`Script`] (sections, requirements, commands, probes).
//! Running a script is `run.rs`'s business; nothing here touches GL.
//!
//! # Format
//!
//! A file is a list of sections, each opened by a `[name]` line:
//!
//! - `[require]`: one requirement per line: `GL >= 3.3`, `GL CORE >= 4.5`, `GLSL >= 1.30`
//!   (comparisons `>=`, `>`, `<=`, `<`, `=`), an extension name `GL_ARB_bindless_texture`,
//!   or `!GL_EXT_foo` (the extension must be absent). Unmet → the scene is skipped.
//! - `[vertex shader]`, `[fragment shader]`: GLSL source, kept verbatim.
//! - `[vertex shader passthrough]`: a generated vertex shader that passes `piglit_vertex`
//!   through to `gl_Position`, written in the fragment shader's `#version` (see
//!   [`passthrough_vertex_shader`]).
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
//! | `enable GL_X` / `disable GL_X` | glEnable / glDisable |
//! | `depthfunc GL_LESS` / `depth mask 0\|1` | glDepthFunc / glDepthMask |
//! | `blend func SRC DST [SRC_A DST_A]` | glBlendFunc(Separate) |
//! | `blend equation MODE [MODE_A]` | glBlendEquation(Separate) |
//! | `blend color r g b a` / `color mask r g b a` (0/1) | glBlendColor / glColorMask |
//! | `scissor x y w h` / `viewport x y w h` | glScissor / glViewport |
//! | `cull face GL_BACK` / `front face GL_CW` / `provoking vertex GL_FIRST_VERTEX_CONVENTION` | glCullFace / glFrontFace / glProvokingVertex |
//! | `draw rect [ortho] x y w h` | two CCW triangles; `piglit_vertex` = (x, y, 0, 1) corners in NDC (ortho: window pixels), `piglit_texcoord` = (0..1, 0..1) |
//! | `draw instanced rect [ortho] N x y w h` | the same, N instances |
//! | `draw arrays [instanced] MODE first count [instances]` | from `[vertex data]` |
//! | `uniform TYPE NAME v...` | glUniform*: `float vec2..4 int ivec2..4 uint uvec2..4 bool bvec2..4 mat2..4 matCxR` (matrices column-major) |
//! | `uniform handle NAME UNIT` | glUniformHandleui64ARB(loc, handle of the texture at UNIT) |
//! | `uniform handle-uvec2 NAME UNIT` | glUniform2ui(loc, low 32 bits, high 32 bits) of that handle |
//! | `uniform handle-uint64 NAME UNIT` | glUniform1ui64ARB(loc, handle) |
//! | `ubo BINDING OFFSET TYPE v...` | writes the values (scalar/vector types) at byte OFFSET of the uniform buffer bound to BINDING (created and grown as needed, uploaded before each draw) |
//! | `ubo BINDING OFFSET handle UNIT` | writes the 8-byte handle of the texture at UNIT there |
//! | `block binding NAME BINDING` | glUniformBlockBinding(program, glGetUniformBlockIndex(NAME), BINDING) (GL 3.1 core, so scenes need no `layout(binding)`) |
//! | `vertex attrib handle NAME UNIT` | glVertexAttribL1ui64ARB(location of NAME, handle of the texture at UNIT) |
//! | `texture rgbw UNIT (W, H) [GL_FORMAT]` | quadrants red (s<½,t<½), green (s≥½,t<½), blue (s<½,t≥½), white; every mip level drawn the same way down to 1×1 (a 1-texel level is white); min `GL_NEAREST_MIPMAP_NEAREST`, mag `GL_NEAREST` |
//! | `texture checkerboard UNIT LEVEL (W, H) (c1) (c2) [GL_FORMAT]` | 2×2 squares of W/2×H/2 texels, c1 at bottom-left and top-right; only LEVEL defined; min and mag `GL_NEAREST`, max level = LEVEL, base level = LEVEL |
//! | `texture miplevels UNIT (W, H)` | a full mip chain, level i a solid colour: red, green, blue, white, yellow, cyan, magenta, then grey (0.5) |
//! | `texparameter 2D min\|mag\|wrap_s\|wrap_t\|border_color\|lod_bias\|min_lod\|max_lod\|base_level\|max_level VALUE` | glTexParameter on the texture at the active unit |
//! | `active texture UNIT` | glActiveTexture (every `texture` command also makes its unit active) |
//! | `resident texture UNIT` | glMakeTextureHandleResidentARB(handle of the texture at UNIT) |
//! | `nonresident texture UNIT` | glMakeTextureHandleNonResidentARB |
//! | `delete texture UNIT` | glDeleteTextures; the handle made from it (if any) stays known to the script, so a later `uniform handle` passes the stale value |
//! | `probe rgb x y r g b` / `probe rgba x y r g b a` | one pixel |
//! | `relative probe rgb (x, y) (r, g, b)` / `relative probe rgba` | pixel at (x·W, y·H) (fractions of the window) |
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

/// Per-channel probe tolerance: one 8-bit step plus an epsilon for the conversion of the
/// expected value (piglit's tolerance for 8-bit framebuffers).
pub const PROBE_TOLERANCE: f32 = 1.0 / 255.0 + 0.001;

/// A parse failure, with the 1-based line it was found on.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParseError {
    /// A `[section]` softgl does not know (geometry shaders, for example).
    #[error("line {line}: unknown section [{name}]")]
    UnknownSection { line: usize, name: String },
    /// Text before the first section header.
    #[error("line {line}: text outside any section")]
    OutsideSection { line: usize },
    /// A `[test]` line that starts with no known command.
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
    /// A section given twice.
    #[error("line {line}: section [{name}] given twice")]
    DuplicateSection { line: usize, name: String },
}

/// A parsed scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    pub requirements: Vec<Requirement>,
    pub vertex_shader: Option<VertexShader>,
    pub fragment_shader: Option<String>,
    pub vertex_data: Option<VertexData>,
    pub commands: Vec<Line<Command>>,
}

impl Script {
    /// The vertex shader's source, generating the pass-through one when asked for.
    pub fn vertex_source(&self) -> Option<String> {
        match &self.vertex_shader {
            Some(VertexShader::Source(s)) => Some(s.clone()),
            Some(VertexShader::Passthrough) => Some(passthrough_vertex_shader(
                self.fragment_shader.as_deref().unwrap_or(""),
            )),
            None => None,
        }
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
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
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
        }
    }
}

/// The vertex shader of a scene.
#[derive(Clone, Debug, PartialEq)]
pub enum VertexShader {
    Source(String),
    Passthrough,
}

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
        pname: u32,
        value: TexParamValue,
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
}

#[derive(Copy, Clone, PartialEq)]
enum Section {
    Require,
    VertexShader,
    FragmentShader,
    VertexData,
    Test,
    /// `[comment]` and friends: ignored text.
    Ignored,
}

/// Parses a `.shader_test` file.
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let mut script = Script::default();
    let mut section: Option<Section> = None;
    let mut vs = String::new();
    let mut fs = String::new();
    let mut seen: Vec<String> = Vec::new();
    let mut data_rows: Vec<(usize, String)> = Vec::new();
    let mut data_header: Option<(usize, String)> = None;

    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            let name = trimmed[1..trimmed.len() - 1].trim().to_string();
            if seen.contains(&name) {
                return Err(ParseError::DuplicateSection { line, name });
            }
            section = Some(match name.as_str() {
                "require" => Section::Require,
                "vertex shader" => {
                    script.vertex_shader = Some(VertexShader::Source(String::new()));
                    Section::VertexShader
                }
                "vertex shader passthrough" => {
                    script.vertex_shader = Some(VertexShader::Passthrough);
                    Section::Ignored
                }
                "fragment shader" => Section::FragmentShader,
                "vertex data" => Section::VertexData,
                "test" => Section::Test,
                "comment" => Section::Ignored,
                _ => return Err(ParseError::UnknownSection { line, name }),
            });
            if name == "vertex shader" && seen.iter().any(|s| s == "vertex shader passthrough")
                || name == "vertex shader passthrough" && seen.iter().any(|s| s == "vertex shader")
            {
                return Err(ParseError::DuplicateSection { line, name });
            }
            seen.push(name);
            continue;
        }
        match section {
            Some(Section::VertexShader) => {
                vs.push_str(raw);
                vs.push('\n');
                continue;
            }
            Some(Section::FragmentShader) => {
                fs.push_str(raw);
                fs.push('\n');
                continue;
            }
            _ => {}
        }
        let content = strip_comment(trimmed);
        if content.is_empty() {
            continue;
        }
        match section {
            None => return Err(ParseError::OutsideSection { line }),
            Some(Section::Require) => script.requirements.push(parse_requirement(line, content)?),
            Some(Section::VertexData) => {
                if data_header.is_none() {
                    data_header = Some((line, content.to_string()));
                } else {
                    data_rows.push((line, content.to_string()));
                }
            }
            Some(Section::Test) => script.commands.push(Line {
                line,
                item: parse_command(line, content)?,
            }),
            Some(Section::Ignored) => {}
            Some(Section::VertexShader | Section::FragmentShader) => {}
        }
    }
    if let Some(VertexShader::Source(_)) = script.vertex_shader {
        script.vertex_shader = Some(VertexShader::Source(vs));
    }
    if seen.iter().any(|s| s == "fragment shader") {
        script.fragment_shader = Some(fs);
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

fn parse_requirement(line: usize, text: &str) -> Result<Requirement, ParseError> {
    let bad = || ParseError::BadRequirement {
        line,
        text: text.to_string(),
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [ext] if ext.starts_with("GL_") => Ok(Requirement::Extension {
            name: ext.to_string(),
            present: true,
        }),
        [ext] if ext.starts_with("!GL_") => Ok(Requirement::Extension {
            name: ext[1..].to_string(),
            present: false,
        }),
        [api, rest @ ..] if *api == "GL" || *api == "GLSL" => {
            // `GL CORE >= 4.5`: the profile word is accepted (softgl has one profile).
            let rest = match rest {
                [p, r @ ..] if matches!(*p, "CORE" | "COMPAT") => r,
                r => r,
            };
            let [cmp, ver] = rest else { return Err(bad()) };
            let cmp = match *cmp {
                ">=" => Cmp::Ge,
                ">" => Cmp::Gt,
                "<=" => Cmp::Le,
                "<" => Cmp::Lt,
                "=" | "==" => Cmp::Eq,
                _ => return Err(bad()),
            };
            let v = Version::parse_leading(ver).ok_or_else(bad)?;
            Ok(if *api == "GL" {
                Requirement::Gl(cmp, v)
            } else {
                Requirement::Glsl(cmp, v)
            })
        }
        _ => Err(bad()),
    }
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

fn parse_f32(s: &str) -> Option<f32> {
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

/// The GL names the format accepts, by where they may appear.
fn gl_enum(name: &str) -> Option<u32> {
    Some(match name {
        // glEnable caps.
        "GL_BLEND" => enums::BLEND,
        "GL_DEPTH_TEST" => enums::DEPTH_TEST,
        "GL_SCISSOR_TEST" => enums::SCISSOR_TEST,
        "GL_CULL_FACE" => enums::CULL_FACE,
        "GL_STENCIL_TEST" => enums::STENCIL_TEST,
        "GL_DEPTH_CLAMP" => enums::DEPTH_CLAMP,
        "GL_RASTERIZER_DISCARD" => enums::RASTERIZER_DISCARD,
        // Depth functions.
        "GL_NEVER" => enums::NEVER,
        "GL_LESS" => enums::LESS,
        "GL_EQUAL" => enums::EQUAL,
        "GL_LEQUAL" => enums::LEQUAL,
        "GL_GREATER" => enums::GREATER,
        "GL_NOTEQUAL" => enums::NOTEQUAL,
        "GL_GEQUAL" => enums::GEQUAL,
        "GL_ALWAYS" => enums::ALWAYS,
        // Blend factors.
        "GL_ZERO" => enums::ZERO,
        "GL_ONE" => enums::ONE,
        "GL_SRC_COLOR" => enums::SRC_COLOR,
        "GL_ONE_MINUS_SRC_COLOR" => enums::ONE_MINUS_SRC_COLOR,
        "GL_DST_COLOR" => enums::DST_COLOR,
        "GL_ONE_MINUS_DST_COLOR" => enums::ONE_MINUS_DST_COLOR,
        "GL_SRC_ALPHA" => enums::SRC_ALPHA,
        "GL_ONE_MINUS_SRC_ALPHA" => enums::ONE_MINUS_SRC_ALPHA,
        "GL_DST_ALPHA" => enums::DST_ALPHA,
        "GL_ONE_MINUS_DST_ALPHA" => enums::ONE_MINUS_DST_ALPHA,
        "GL_CONSTANT_COLOR" => enums::CONSTANT_COLOR,
        "GL_ONE_MINUS_CONSTANT_COLOR" => enums::ONE_MINUS_CONSTANT_COLOR,
        "GL_CONSTANT_ALPHA" => enums::CONSTANT_ALPHA,
        "GL_ONE_MINUS_CONSTANT_ALPHA" => enums::ONE_MINUS_CONSTANT_ALPHA,
        "GL_SRC_ALPHA_SATURATE" => enums::SRC_ALPHA_SATURATE,
        // Blend equations.
        "GL_FUNC_ADD" => enums::FUNC_ADD,
        "GL_FUNC_SUBTRACT" => enums::FUNC_SUBTRACT,
        "GL_FUNC_REVERSE_SUBTRACT" => enums::FUNC_REVERSE_SUBTRACT,
        "GL_MIN" => enums::MIN,
        "GL_MAX" => enums::MAX,
        // Faces and winding.
        "GL_FRONT" => enums::FRONT,
        "GL_BACK" => enums::BACK,
        "GL_FRONT_AND_BACK" => enums::FRONT_AND_BACK,
        "GL_CW" => enums::CW,
        "GL_CCW" => enums::CCW,
        "GL_FIRST_VERTEX_CONVENTION" => enums::FIRST_VERTEX_CONVENTION,
        "GL_LAST_VERTEX_CONVENTION" => enums::LAST_VERTEX_CONVENTION,
        // Primitive modes.
        "GL_TRIANGLES" => enums::TRIANGLES,
        "GL_TRIANGLE_STRIP" => enums::TRIANGLE_STRIP,
        "GL_TRIANGLE_FAN" => enums::TRIANGLE_FAN,
        // Texture filters and wraps.
        "GL_NEAREST" => enums::NEAREST,
        "GL_LINEAR" => enums::LINEAR,
        "GL_NEAREST_MIPMAP_NEAREST" => enums::NEAREST_MIPMAP_NEAREST,
        "GL_LINEAR_MIPMAP_NEAREST" => enums::LINEAR_MIPMAP_NEAREST,
        "GL_NEAREST_MIPMAP_LINEAR" => enums::NEAREST_MIPMAP_LINEAR,
        "GL_LINEAR_MIPMAP_LINEAR" => enums::LINEAR_MIPMAP_LINEAR,
        "GL_REPEAT" => enums::REPEAT,
        "GL_MIRRORED_REPEAT" => enums::MIRRORED_REPEAT,
        "GL_CLAMP_TO_EDGE" => enums::CLAMP_TO_EDGE,
        "GL_CLAMP_TO_BORDER" => enums::CLAMP_TO_BORDER,
        "GL_MIRROR_CLAMP_TO_EDGE" => enums::MIRROR_CLAMP_TO_EDGE,
        // Internal formats.
        "GL_RGBA8" => enums::RGBA8,
        "GL_RGB8" => enums::RGB8,
        "GL_RG8" => enums::RG8,
        "GL_R8" => enums::R8,
        "GL_RGBA16F" => enums::RGBA16F,
        "GL_RGBA32F" => enums::RGBA32F,
        "GL_R16F" => enums::R16F,
        "GL_R32F" => enums::R32F,
        "GL_RG16F" => enums::RG16F,
        "GL_RGB16F" => enums::RGB16F,
        "GL_RG32F" => enums::RG32F,
        "GL_RGB32F" => enums::RGB32F,
        "GL_RGBA16" => enums::RGBA16,
        "GL_SRGB8_ALPHA8" => enums::SRGB8_ALPHA8,
        "GL_RGB565" => enums::RGB565,
        "GL_RGBA4" => enums::RGBA4,
        "GL_RGB5_A1" => enums::RGB5_A1,
        "GL_RGB10_A2" => enums::RGB10_A2,
        "GL_R11F_G11F_B10F" => enums::R11F_G11F_B10F,
        _ => return None,
    })
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
    Ok(match (w(0), w(1)) {
        ("clear", "color") => Command::ClearColor(arr4(&floats(2, 4, "colour")?)),
        ("clear", "depth") => Command::ClearDepth(floats(2, 1, "depth")?[0] as f64),
        ("clear", "") => Command::Clear,
        ("enable", cap) if words.len() == 2 => Command::Enable(en(cap)?),
        ("disable", cap) if words.len() == 2 => Command::Disable(en(cap)?),
        ("depthfunc", f) if words.len() == 2 => Command::DepthFunc(en(f)?),
        ("depth", "mask") => Command::DepthMask(ints(2, 1, "depth mask")?[0] != 0),
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
        ("provoking", "vertex") if words.len() == 3 => Command::ProvokingVertex(en(w(2))?),
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
            let mode = en(w(mode_at))?;
            if !matches!(
                mode,
                enums::TRIANGLES | enums::TRIANGLE_STRIP | enums::TRIANGLE_FAN
            ) {
                return Err(bad("primitive mode"));
            }
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
        ("texparameter", "2D") => {
            let v = w(3);
            let f = |what| parse_f32(v).ok_or_else(|| bad(what));
            let i = |what| parse_i32(v).ok_or_else(|| bad(what));
            let (pname, value) = match w(2) {
                "min" => (enums::TEXTURE_MIN_FILTER, TexParamValue::Enum(en(v)?)),
                "mag" => (enums::TEXTURE_MAG_FILTER, TexParamValue::Enum(en(v)?)),
                "wrap_s" => (enums::TEXTURE_WRAP_S, TexParamValue::Enum(en(v)?)),
                "wrap_t" => (enums::TEXTURE_WRAP_T, TexParamValue::Enum(en(v)?)),
                "border_color" => (
                    enums::TEXTURE_BORDER_COLOR,
                    TexParamValue::Color(arr4(&floats(3, 4, "border colour")?)),
                ),
                "lod_bias" => (
                    enums::TEXTURE_LOD_BIAS,
                    TexParamValue::Float(f("lod bias")?),
                ),
                "min_lod" => (enums::TEXTURE_MIN_LOD, TexParamValue::Float(f("min lod")?)),
                "max_lod" => (enums::TEXTURE_MAX_LOD, TexParamValue::Float(f("max lod")?)),
                "base_level" => (
                    enums::TEXTURE_BASE_LEVEL,
                    TexParamValue::Int(i("base level")?),
                ),
                "max_level" => (
                    enums::TEXTURE_MAX_LEVEL,
                    TexParamValue::Int(i("max level")?),
                ),
                _ => return Err(bad("texture parameter")),
            };
            if pname != enums::TEXTURE_BORDER_COLOR && words.len() != 4 {
                return Err(bad("texture parameter value"));
            }
            Command::TexParameter { pname, value }
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
        ["rect", rest @ ..] if !relative => ("rect", rest),
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
        assert!(s
            .fragment_shader
            .as_deref()
            .unwrap()
            .starts_with("#version 330\n"));
        assert_eq!(s.vertex_shader, Some(VertexShader::Passthrough));
        assert!(s
            .vertex_source()
            .unwrap()
            .starts_with("#version 330\nin vec4 piglit_vertex;"));
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
        assert!(parse("[test]\ndraw arrays GL_POINTS 0 3\n").is_err());
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
        assert!(parse("[test]\nuniform dvec2 v 1 2\n").is_err());
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
                pname: enums::TEXTURE_MIN_FILTER,
                value: TexParamValue::Enum(enums::LINEAR_MIPMAP_LINEAR)
            }
        );
        assert_eq!(
            cmd("texparameter 2D border_color (0, 0, 0, 1)"),
            Command::TexParameter {
                pname: enums::TEXTURE_BORDER_COLOR,
                value: TexParamValue::Color([0.0, 0.0, 0.0, 1.0])
            }
        );
        assert_eq!(
            cmd("texparameter 2D lod_bias -1.5"),
            Command::TexParameter {
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
        assert!(matches!(
            parse("clear\n"),
            Err(ParseError::OutsideSection { line: 1 })
        ));
        assert!(matches!(
            parse("[geometry shader]\n"),
            Err(ParseError::UnknownSection { .. })
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
                s.fragment_shader.is_some(),
                "{}: no fragment shader",
                p.display()
            );
            assert!(
                s.vertex_shader.is_some(),
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
}
