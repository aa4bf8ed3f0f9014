//! Program linking (GL 4.5 core §7.3, GLSL 4.50 §4.3.4, §4.4): matches a vertex and a fragment
//! `Module` into one program interface — varyings by location or name, attribute locations to
//! input slots, the program-wide default-block uniform table with its locations, uniform blocks
//! by name, colour outputs by location. Pure data: compiling the stages and building the
//! rasterizer's `ProgramCode` is the API's job (`api::program`).

use std::collections::HashMap;

use crate::ir::{
    BaseType, BlockMember, BuiltinOutput, Function, InterfaceVar, Interpolation, Module, Stage,
    UniformDecl, ValueType,
};

/// One varying the fragment shader reads: fragment input word `fs_slot` comes from vertex
/// output word `vs_slot`, interpolated as `interpolation`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct VaryingLink {
    pub fs_slot: u32,
    pub vs_slot: u32,
    pub interpolation: Interpolation,
}

/// The vertex output word a `VaryingLink` names for gl_PointCoord.s (`.t` is the next): no
/// vertex shader writes it, so vertex shading reads 0 there, and point setup puts the sprite
/// coordinates in its place (GL 4.5 core §14.4.1).
pub const POINT_COORD_SLOT: u32 = u32::MAX - 1;

/// The vertex output word a `VaryingLink` names for a fragment shader's gl_Layer or
/// gl_ViewportIndex when no earlier stage writes it: no stage has that word, so vertex
/// shading and the geometry stage read 0 there (GL_ARB_fragment_layer_viewport: "the
/// input ... will have value zero").
pub const ZERO_SLOT: u32 = u32::MAX - 2;

/// The vertex output word a `VaryingLink` names for a fragment shader's gl_PrimitiveID
/// when no geometry shader writes it (GL 4.5 core §15.2.2: the number of primitives the
/// draw has processed, per instance; with tessellation, the patch's number): no stage has
/// that word, and the rasterizer puts the primitive's number in its place
/// (`raster::front`, `raster::tess`).
pub const PRIMITIVE_ID_SLOT: u32 = u32::MAX - 3;

/// `GL_MAX_VERTEX_ATTRIBS`.
pub const MAX_VERTEX_ATTRIBS: u32 = 16;
/// `GL_MAX_DRAW_BUFFERS`.
pub const MAX_DRAW_BUFFERS: u32 = 8;
/// GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (ARB_blend_func_extended, GL 4.5 core table 23.53's
/// minimum): the index-1 colour pairs with draw buffer 0 only.
pub const MAX_DUAL_SOURCE_DRAW_BUFFERS: u32 = 1;
/// `GL_MAX_VERTEX_UNIFORM_BLOCKS` (and each other stage's): the active uniform blocks one
/// stage may use; past it the link fails (GL 4.5 core §7.6.2; table 23.57ff ask 14).
pub const MAX_STAGE_UNIFORM_BLOCKS: u32 = 18;
/// `GL_MAX_COMBINED_UNIFORM_BLOCKS`: every graphics stage at its limit (GL 4.5 core table
/// 23.63 asks 70), so the combined limit never fails a link the stage limits pass.
pub const MAX_COMBINED_UNIFORM_BLOCKS: u32 = 5 * MAX_STAGE_UNIFORM_BLOCKS;
/// `GL_MAX_UNIFORM_BUFFER_BINDINGS`: a block's `layout(binding)` must be below it; one
/// binding point for each block a program may use (GL 4.5 core table 23.63 asks 84).
pub const MAX_UNIFORM_BUFFER_BINDINGS: u32 = MAX_COMBINED_UNIFORM_BLOCKS;
/// `GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS`: a storage block's `layout(binding)` must be
/// below it (llvmpipe's 32).
pub const MAX_SHADER_STORAGE_BUFFER_BINDINGS: u32 = 32;
/// `GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS` and `GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS` (and
/// the combined limit, twice it): the storage blocks one stage may use.
pub const MAX_STAGE_STORAGE_BLOCKS: u32 = 16;
/// `GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`: a sampler's `layout(binding)` must be below it.
/// The five graphics stages' 16 each (GL 4.5 core table 23.63 asks 80).
pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 = 80;
/// `GL_MAX_VERTEX_UNIFORM_COMPONENTS` and `GL_MAX_FRAGMENT_UNIFORM_COMPONENTS`: the
/// default-block words one stage may use (one per component; a 64-bit handle or sampler
/// two). A stage past it fails to link (GL 4.5 core §7.6: "a link error is generated" when
/// a shader uses more uniform storage than the limit). 16,384 as llvmpipe reports (GL
/// asks for at least 1,024): softgl sizes uniform storage per program, so the limit only
/// keeps hostile programs (100,000 uniforms) from costing memory and time.
pub const MAX_UNIFORM_COMPONENTS: u32 = 16_384;
/// `GL_MAX_UNIFORM_LOCATIONS` (GL 4.5 core table 23.67 asks 1,024): every default-block
/// uniform location, explicit (`layout(location)`) or generated, is below it
/// (GL_ARB_explicit_uniform_location), or the link fails. One per uniform component of
/// a stage at its limit, so a program whose stages fit their components rarely meets it.
pub const MAX_UNIFORM_LOCATIONS: u32 = MAX_UNIFORM_COMPONENTS;
/// A location of `Linked::locations` no uniform has: explicit locations leave holes.
const FREE_LOCATION: (u32, u32) = (u32::MAX, 0);

/// Why a link failed; each renders as one `error:` line of the program info log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// A module of the wrong stage was passed (the API attaches by shader type, so: a bug).
    #[error("a {expected:?} shader is required but a {found:?} shader was given")]
    WrongStage { expected: Stage, found: Stage },
    #[error("vertex shader does not write gl_Position")]
    MissingPosition,
    /// A compute shader without `layout(local_size_x = ...) in;` (GLSL 4.60 §4.4.1.4).
    #[error("compute shader does not declare a local size (layout(local_size_x = N) in;)")]
    NoLocalSize,
    /// More invocations per work group than GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS.
    #[error("the compute shader's work group has {invocations} invocations; GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS is {limit}")]
    WorkGroupTooBig { invocations: u64, limit: u32 },
    #[error("fragment shader input `{name}` is not written by the vertex shader")]
    VaryingMissing { name: String },
    #[error("`{name}` has type {vs} in the vertex shader but {fs} in the fragment shader")]
    VaryingType {
        name: String,
        vs: String,
        fs: String,
    },
    #[error(
        "`{name}` has interpolation {vs:?} in the vertex shader but {fs:?} in the fragment shader"
    )]
    VaryingInterpolation {
        name: String,
        vs: Interpolation,
        fs: Interpolation,
    },
    /// A geometry shader input no vertex shader output matches (GLSL 1.50 §4.3.4).
    #[error("geometry shader input `{name}` is not written by the vertex shader")]
    GeometryInputMissing { name: String },
    /// A tessellation stage input no output of the stage before matches (GLSL 4.00
    /// §4.3.4).
    #[error("tessellation shader input `{name}` is not written by the stage before it")]
    TessInputMissing { name: String },
    #[error("tessellation shader input `{name}` does not match the output of the stage before it (type, size, or `patch')")]
    TessInputType { name: String },
    /// GLSL 4.00 §4.3.8.1–2: the layouts the tessellation stages must declare.
    #[error("program does not declare {what}")]
    TessLayout { what: &'static str },
    #[error("geometry shader input `{name}` does not match the vertex shader output's type (or is not an array of the input primitive's size)")]
    GeometryInputType { name: String },
    /// GLSL 1.50 §4.3.8.1/§4.3.8.2: the layouts must be declared by some unit.
    #[error("geometry shader does not declare {what}")]
    GeometryLayout { what: &'static str },
    #[error("geometry shader emits {vertices} vertices of {components} components: more than GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS (1024) or GL_MAX_GEOMETRY_OUTPUT_COMPONENTS (128)")]
    GeometryOutputTooBig { components: u32, vertices: u32 },
    /// GLSL 4.00 §8.12: emitting to a vertex stream other than 0 needs the points output
    /// primitive.
    #[error("geometry shader calls EmitStreamVertex() with a stream other than 0, so its output primitive must be points")]
    GeometryStreamsNeedPoints,
    /// GL 4.5 core §11.3.4.3: only stream 0 reaches the fragment shader.
    #[error("fragment shader input `{name}` would be fed by a geometry output of vertex stream {stream}: only stream 0 is rasterized")]
    GeometryStreamInput { name: String, stream: u32 },
    #[error("uniform `{name}` is declared with different types in the two stages")]
    UniformType { name: String },
    /// GLSL 4.60 §4.3.5: "If a uniform is declared with an initializer in more than one
    /// shader ..., the initializers must have the same value".
    #[error("uniform `{name}` has different initializers in two stages")]
    UniformInitializer { name: String },
    /// GL_ARB_explicit_uniform_location: one uniform declared with two locations.
    #[error("uniform `{name}` has different explicit locations in two stages")]
    UniformLocationMismatch { name: String },
    /// GL_ARB_explicit_uniform_location: "No two default-block uniform variables in the
    /// program can have the same location".
    #[error("uniforms `{a}` and `{b}` both use location {location}")]
    UniformLocationOverlap { a: String, b: String, location: u32 },
    #[error("uniform `{name}` needs location {location}, past GL_MAX_UNIFORM_LOCATIONS ({MAX_UNIFORM_LOCATIONS})")]
    UniformLocationRange { name: String, location: u32 },
    #[error("uniform block `{name}` is declared differently in the two stages")]
    BlockMismatch { name: String },
    /// ARB_bindless_texture: "If both bindless_sampler and bound_sampler ... are declared at
    /// global scope in any compilation unit, a link-time error will be generated."
    #[error(
        "layout(bindless_sampler) and layout(bound_sampler) are both declared at global scope"
    )]
    BindlessAndBound,
    #[error("vertex attribute `{name}` needs location {location}, past GL_MAX_VERTEX_ATTRIBS ({MAX_VERTEX_ATTRIBS})")]
    AttributeLocation { name: String, location: u32 },
    #[error("too many vertex attributes to assign locations (GL_MAX_VERTEX_ATTRIBS is {MAX_VERTEX_ATTRIBS})")]
    TooManyAttributes,
    #[error("fragment outputs `{a}` and `{b}` both use location {location}")]
    OutputLocation { a: String, b: String, location: u32 },
    /// GLSL 4.60 §4.4.1: two user varyings of one interface with explicit locations whose
    /// location ranges meet (a dvec3 or dvec4 takes two locations).
    #[error("{dir} `{a}` and `{b}` both use location {location}")]
    VaryingLocationOverlap {
        dir: &'static str,
        a: String,
        b: String,
        location: u32,
    },
    #[error("fragment output `{name}` uses location {location}, past GL_MAX_DRAW_BUFFERS ({MAX_DRAW_BUFFERS})")]
    OutputRange { name: String, location: u32 },
    #[error("fragment output `{name}` has index 1 at location {location}: dual-source blending allows index 1 at location 0 only (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is {MAX_DUAL_SOURCE_DRAW_BUFFERS}), and no array larger than 1")]
    DualSourceLocation { name: String, location: u32 },
    #[error("fragment output `{name}` is a second output of index 1 at location 0")]
    DualSourceTwice { name: String },
    #[error("the {stage} shader uses {used} shader storage blocks, more than GL_MAX_{upper}_SHADER_STORAGE_BLOCKS ({MAX_STAGE_STORAGE_BLOCKS})")]
    StorageBlocks {
        stage: &'static str,
        upper: &'static str,
        used: u32,
    },
    #[error("the {stage} shader uses {used} uniform blocks, more than GL_MAX_{upper}_UNIFORM_BLOCKS ({MAX_STAGE_UNIFORM_BLOCKS})")]
    UniformBlocks {
        stage: &'static str,
        upper: &'static str,
        used: u32,
    },
    #[error("the {stage} shader uses {used} uniform components, more than {limit} ({MAX_UNIFORM_COMPONENTS})")]
    UniformComponents {
        stage: &'static str,
        used: u32,
        limit: &'static str,
    },
    /// GLSL 4.60 §4.4.6.2: two counters may not share a word of one buffer.
    #[error("atomic counters `{a}` and `{b}` overlap in the buffer of binding {binding}")]
    AtomicCounterOverlap { a: String, b: String, binding: u32 },
    #[error("atomic counter `{name}` is declared with different bindings, offsets or sizes in two stages")]
    AtomicCounterMismatch { name: String },
    #[error("the {stage} shaders use {used} atomic counter buffers, more than GL_MAX_*_ATOMIC_COUNTER_BUFFERS ({})", super::atomic_counter::MAX_STAGE_ATOMIC_COUNTER_BUFFERS)]
    AtomicCounterBuffers { stage: &'static str, used: u32 },
    #[error(
        "the {stage} shaders use {used} atomic counters, more than GL_MAX_*_ATOMIC_COUNTERS allows"
    )]
    AtomicCounters { stage: &'static str, used: u32 },
}

/// What linking needs from the program object besides the modules.
#[derive(Clone, Debug, Default)]
pub struct LinkOptions {
    /// glBindAttribLocation bindings (name, location), applied where the shader has no
    /// `layout(location)` (GL 4.5 core §11.1.1: the layout qualifier wins).
    pub attrib_bindings: Vec<(String, u32)>,
    /// glBindFragDataLocation bindings (name, colour number), applied where the shader has
    /// no `layout(location)` (GL 4.5 core §15.2.3: the layout qualifier wins).
    pub frag_data_bindings: Vec<(String, u32)>,
    /// Names bound with glBindFragDataLocationIndexed index 1 (colour number 0): the second
    /// source colour of dual-source blending, where the shader has no `layout(location)`.
    pub frag_data_index1: Vec<String>,
    /// The interfaces between the stages are open (GL 4.5 core §7.4.1, separate shader
    /// objects): a stage of another program, or none, may sit on the other side. So an
    /// input no output matches, or one whose type differs, is left unwritten (it reads 0;
    /// GL calls its value undefined) instead of failing the link, and a vertex stage need
    /// not write gl_Position. Set for pipelines' compositions and for a separable program's
    /// stand-in stages (`api::pipeline`), never for the inside of one program.
    pub open_interfaces: bool,
}

/// An active vertex attribute.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub ty: ValueType,
    pub array_len: Option<u32>,
    /// First generic attribute location.
    pub location: u32,
    /// Number of consecutive locations it takes (matrix columns, array elements, 64-bit
    /// vectors with more than two components).
    pub locations: u32,
    /// First input word of the vertex shader (`InterfaceVar::slot`).
    pub slot: u32,
}

impl Attribute {
    /// Input word of the location `location + i` (4 words per location, DESIGN of
    /// `Module::inputs`: "vertex inputs occupy location * 4").
    pub fn slot_of(&self, i: u32) -> u32 {
        self.slot + 4 * i
    }
    /// Location offsets (from `location`) that each read one attribute array: every
    /// location, except that a 64-bit vector of 3 or 4 components reads its whole value
    /// from the first of its two locations (GL 4.5 core §10.2.1).
    pub fn fetch_offsets(&self) -> impl Iterator<Item = u32> {
        let step = if self.ty.base == BaseType::Uint64 && self.ty.rows > 2 {
            2
        } else {
            1
        };
        (0..self.locations).step_by(step)
    }
}

/// One active uniform of the program (merged over the stages).
#[derive(Clone, Debug, PartialEq)]
pub struct Uniform {
    /// Reflection name (`a[0]` for arrays).
    pub name: String,
    pub ty: ValueType,
    pub array_len: Option<u32>,
    /// Words between elements.
    pub stride: u32,
    /// First word in the vertex / fragment default block, when the stage declares it.
    pub offsets: [Option<u32>; 2],
    pub bindless: bool,
    pub bound: bool,
    pub binding: Option<i32>,
    /// Location of element 0; element i has `location + i`.
    pub location: u32,
    /// `layout(location = N)` in some stage (`UniformDecl::location`).
    pub explicit_location: Option<u32>,
    /// The initializer's words (`UniformDecl::init`), written at link into every stage
    /// that has the uniform.
    pub init: Option<Vec<u32>>,
}

impl Uniform {
    pub fn elements(&self) -> u32 {
        self.array_len.unwrap_or(1)
    }
    pub fn is_sampler(&self) -> bool {
        self.ty.base.is_sampler()
    }
}

/// One active uniform block of the program.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub name: String,
    pub size: u32,
    /// Initial binding point (`layout(binding)` or 0).
    pub binding: u32,
    /// Index of this block in the vertex / fragment module's `blocks`.
    pub stage_index: [Option<u32>; 2],
    /// The block's leaf members with their std140 layout (reflection).
    pub members: Vec<BlockMember>,
}

/// One active uniform as GL's reflection queries see it (GL 4.5 core §7.3.1): the uniforms
/// of the default block first (`Linked::uniforms`, index = position), then the members of
/// the named blocks in block order. Offsets and strides are in bytes; -1 where GL says so
/// for default-block uniforms.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveUniform<'a> {
    pub name: &'a str,
    pub ty: ValueType,
    pub size: u32,
    pub block_index: i32,
    pub offset: i32,
    pub array_stride: i32,
    pub matrix_stride: i32,
    pub row_major: bool,
    /// Index in `Linked::atomic_counter_buffers` of an atomic counter, else -1.
    pub atomic_buffer: i32,
}

/// One user-defined fragment shader output (GL 4.5 core §15.2.3).
#[derive(Clone, Debug, PartialEq)]
pub struct FragOutput {
    pub name: String,
    pub ty: ValueType,
    /// First location (colour number).
    pub location: u32,
    pub array_len: Option<u32>,
    /// The output's index: 1 for the second source colour of dual-source blending.
    pub index: u32,
}

/// A linked program's interface.
#[derive(Clone, Debug, PartialEq)]
pub struct Linked {
    pub attributes: Vec<Attribute>,
    pub vs_input_words: u32,
    pub vs_output_words: u32,
    pub position_slot: u32,
    pub fs_input_words: u32,
    pub varyings: Vec<VaryingLink>,
    pub fs_output_words: u32,
    pub color_slots: Vec<Option<u32>>,
    /// First output word of the index-1 colour (location 0, dual-source blending), when the
    /// fragment shader has one.
    pub src1_slot: Option<u32>,
    /// User-defined colour outputs, in declaration order.
    pub frag_outputs: Vec<FragOutput>,
    pub frag_depth_slot: Option<u32>,
    pub uses_discard: bool,
    pub early_fragment_tests: bool,
    pub uniforms: Vec<Uniform>,
    /// `locations[loc] = (uniform index, array element)`, or `FREE_LOCATION` where no
    /// uniform is (read it with `uniform_at`).
    pub locations: Vec<(u32, u32)>,
    pub blocks: Vec<Block>,
    /// Active shader storage blocks (their own binding space); `stage_index` indexes the
    /// modules' `storage_blocks`.
    pub storage_blocks: Vec<Block>,
    /// Active atomic counter buffers (`ir::atomic_counter`): `binding` is the
    /// GL_ATOMIC_COUNTER_BUFFER binding point, `members` the counters of every stage,
    /// `size` GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE; `stage_index` indexes the modules'
    /// `storage_blocks` as for storage blocks.
    pub atomic_counter_buffers: Vec<Block>,
    pub vs_uniform_words: u32,
    pub fs_uniform_words: u32,
}

impl Linked {
    /// The uniform (index into `uniforms`) and array element at `location`, for
    /// glUniform* and glGetUniform*; `None` for a location no uniform has.
    pub fn uniform_at(&self, location: i32) -> Option<(u32, u32)> {
        let &at = self.locations.get(usize::try_from(location).ok()?)?;
        (at != FREE_LOCATION).then_some(at)
    }
}

impl Linked {
    /// glGetUniformLocation's lookup (GL 4.5 core §7.3.1.1): `name`, `name[0]` and `name[i]`
    /// for arrays. `None` for names that are not active uniforms, and for built-ins
    /// (`gl_DepthRange.near`): names starting with "gl_" have no location (§7.6).
    pub fn uniform_location(&self, name: &str) -> Option<u32> {
        if name.starts_with("gl_") {
            return None;
        }
        let (base, index) = split_index(name);
        for u in &self.uniforms {
            let u_base = u.name.strip_suffix("[0]").unwrap_or(&u.name);
            if u.name == name {
                return Some(u.location);
            }
            if u.array_len.is_some() && u_base == base {
                let i = index.unwrap_or(0);
                if i < u.elements() {
                    return Some(u.location + i);
                }
            }
        }
        None
    }
    /// glGetFragDataLocation (GL 4.5 core §15.2.3): `name`, or `name[i]` of an array output;
    /// `None` for built-ins and names that are not active outputs.
    pub fn frag_data_location(&self, name: &str) -> Option<u32> {
        let (base, index) = split_index(name);
        self.frag_outputs.iter().find_map(|o| {
            if o.name == name {
                return Some(o.location);
            }
            let i = index?;
            (o.array_len.is_some() && o.name == base && i < o.array_len.unwrap_or(1))
                .then_some(o.location + i)
        })
    }
    /// glGetFragDataIndex (GL 4.5 core §15.2.3): the index of active output `name` (as
    /// `frag_data_location` finds it), `None` for names that are not active outputs.
    pub fn frag_data_index(&self, name: &str) -> Option<u32> {
        let (base, index) = split_index(name);
        self.frag_outputs.iter().find_map(|o| {
            let hit = o.name == name
                || index.is_some_and(|i| {
                    o.array_len.is_some() && o.name == base && i < o.array_len.unwrap_or(1)
                });
            hit.then_some(o.index)
        })
    }
    /// glGetAttribLocation.
    pub fn attrib_location(&self, name: &str) -> Option<u32> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.location)
    }
    /// The number of active uniforms (default block and block members), GL_ACTIVE_UNIFORMS.
    pub fn active_uniform_count(&self) -> usize {
        self.active_uniforms().count()
    }

    /// Every active uniform in index order (GL 4.5 core §7.3.1): the default block's, then
    /// the members of named blocks. An array of blocks (`B[0]`, `B[1]`, ...) lists its
    /// members once, under `B[0]` (§7.3.1.1: members of block arrays are named without the
    /// block's index).
    pub fn active_uniforms(&self) -> impl Iterator<Item = ActiveUniform<'_>> {
        // The hidden subroutine selections (`ir::subroutine`) are not uniforms to GL; they
        // are last in `uniforms`, so indices of the others are their positions.
        let visible = self
            .uniforms
            .iter()
            .filter(|u| super::subroutine::hidden_uniform_stage(&u.name).is_none());
        let default_block = visible.map(|u| ActiveUniform {
            name: &u.name,
            ty: u.ty,
            size: u.elements(),
            block_index: -1,
            offset: -1,
            array_stride: -1,
            matrix_stride: -1,
            row_major: false,
            atomic_buffer: -1,
        });
        let members = self
            .blocks
            .iter()
            .enumerate()
            // The members of an array of blocks are listed once, with its first element
            // (`B[0]`, `B[0][0]` for an array of arrays).
            .filter(|(_, b)| is_first_element(&b.name))
            .flat_map(|(b, block)| {
                block.members.iter().map(move |m| ActiveUniform {
                    name: &m.name,
                    ty: m.ty,
                    size: m.array_len.unwrap_or(1),
                    block_index: b as i32,
                    offset: m.offset as i32,
                    array_stride: m.array_stride as i32,
                    matrix_stride: m.matrix_stride as i32,
                    row_major: m.row_major,
                    atomic_buffer: -1,
                })
            });
        // Atomic counters are uniforms without a location (GL 4.5 core §7.3.1.1): listed
        // after the others, buffer by buffer.
        let counters = (self.atomic_counter_buffers.iter().enumerate()).flat_map(|(b, buf)| {
            buf.members.iter().map(move |m| ActiveUniform {
                name: &m.name,
                ty: m.ty,
                size: m.array_len.unwrap_or(1),
                block_index: -1,
                offset: m.offset as i32,
                array_stride: m.array_stride as i32,
                matrix_stride: 0,
                row_major: false,
                atomic_buffer: b as i32,
            })
        });
        default_block.chain(members).chain(counters)
    }

    /// Active uniform `index`, `None` past GL_ACTIVE_UNIFORMS.
    pub fn active_uniform(&self, index: usize) -> Option<ActiveUniform<'_>> {
        self.active_uniforms().nth(index)
    }

    /// glGetUniformIndices' lookup: the active uniform named `name`, or `name[0]` for an
    /// array given without its index.
    pub fn uniform_index(&self, name: &str) -> Option<u32> {
        self.active_uniforms()
            .position(|u| u.name == name || u.name.strip_suffix("[0]") == Some(name))
            .map(|i| i as u32)
    }

    /// glGetUniformBlockIndex.
    pub fn block_index(&self, name: &str) -> Option<u32> {
        self.blocks
            .iter()
            .position(|b| b.name == name)
            .map(|i| i as u32)
    }
}

/// Splits `a[3]` into (`a`, Some(3)); any other name into (name, None).
/// Whether every element number in `name` (`B[0][2]`) is 0: the first element of an
/// array of blocks, or no array.
fn is_first_element(name: &str) -> bool {
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            return true;
        };
        if &rest[open + 1..open + close] != "0" {
            return false;
        }
        rest = &rest[open + close + 1..];
    }
    true
}

fn split_index(name: &str) -> (&str, Option<u32>) {
    if let Some(stripped) = name.strip_suffix(']') {
        if let Some(open) = stripped.rfind('[') {
            // GL 4.5 core §7.3.1.1: the element number is decimal, "without a "+" or "-"
            // sign or any extra leading zeroes" and without white space: `a[+1]`, `a[01]`
            // and `a[ 0]` name nothing (u32's parser would take the first two).
            let digits = &stripped[open + 1..];
            let canonical = !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'));
            if let Some(i) = canonical.then(|| digits.parse::<u32>().ok()).flatten() {
                return (&stripped[..open], Some(i));
            }
        }
    }
    (name, None)
}

fn type_name(ty: ValueType, array_len: Option<u32>) -> String {
    let base = match ty.base {
        BaseType::Float => "float",
        BaseType::Int => "int",
        BaseType::Uint => "uint",
        BaseType::Bool => "bool",
        BaseType::Uint64 => "uint64_t",
        BaseType::AtomicUint => "atomic_uint",
        b => b.sampler_name().unwrap_or("sampler"),
    };
    let mut s = if ty.cols > 1 {
        format!("mat{}x{}", ty.cols, ty.rows)
    } else if ty.rows > 1 {
        let prefix = match ty.base {
            BaseType::Int => "i",
            BaseType::Uint => "u",
            BaseType::Bool => "b",
            BaseType::Uint64 => "u64",
            _ => "",
        };
        format!("{prefix}vec{}", ty.rows)
    } else {
        base.to_string()
    };
    if let Some(n) = array_len {
        s.push_str(&format!("[{n}]"));
    }
    s
}

/// Generic attribute locations one attribute takes (GL 4.5 core §11.1.1: matrices one per
/// column; 64-bit vectors with 3 or 4 components two).
fn attribute_locations(v: &InterfaceVar) -> u32 {
    let per = match v.ty.base {
        BaseType::Uint64 | BaseType::Double if v.ty.rows > 2 => 2,
        _ => 1,
    };
    per * v.ty.cols as u32 * v.array_len.unwrap_or(1)
}

/// Links a vertex and a fragment module. All errors are collected for the info log.
/// The output word of a vertex shader's gl_ClipDistance[0] and the array's size, when it
/// writes it (the rasterizer clips by the enabled ones, `raster::clip`).
pub fn clip_distance_output(vs: &Module) -> Option<(u32, u32)> {
    distance_output(vs, BuiltinOutput::ClipDistance)
}

/// The output word of a vertex shader's gl_CullDistance[0] and the array's size, when it
/// writes it (the rasterizer culls by all of them, `raster::clip`).
pub fn cull_distance_output(vs: &Module) -> Option<(u32, u32)> {
    distance_output(vs, BuiltinOutput::CullDistance)
}

fn distance_output(vs: &Module, which: BuiltinOutput) -> Option<(u32, u32)> {
    vs.outputs
        .iter()
        .find(|o| o.builtin == Some(which))
        .map(|o| (o.slot, o.words))
}

/// Links a program whose only stage is compute (GL 4.5 core §7.3): the compute module takes
/// the first stage slot of `Linked` (`vs_uniform_words`, `stage_index[0]` of its blocks,
/// the first of each uniform's offsets), the second is empty; nothing else applies.
pub fn link_compute(cs: &Module) -> Result<Linked, Vec<LinkError>> {
    let mut errors = Vec::new();
    if cs.stage != Stage::Compute {
        return Err(vec![LinkError::WrongStage {
            expected: Stage::Compute,
            found: cs.stage,
        }]);
    }
    let invocations: u64 = cs.local_size.iter().map(|&s| s as u64).product();
    if invocations == 0 {
        errors.push(LinkError::NoLocalSize);
    } else if invocations > crate::ir::compute::MAX_INVOCATIONS as u64 {
        errors.push(LinkError::WorkGroupTooBig {
            invocations,
            limit: crate::ir::compute::MAX_INVOCATIONS,
        });
    }
    if cs.uniform_words > MAX_UNIFORM_COMPONENTS {
        errors.push(LinkError::UniformComponents {
            stage: "compute",
            used: cs.uniform_words,
            limit: "GL_MAX_COMPUTE_UNIFORM_COMPONENTS",
        });
    }
    if cs.blocks.len() > MAX_STAGE_UNIFORM_BLOCKS as usize {
        errors.push(LinkError::UniformBlocks {
            stage: "compute",
            upper: "COMPUTE",
            used: cs.blocks.len() as u32,
        });
    }
    let storage_count = super::atomic_counter::storage_block_count(cs);
    if storage_count > MAX_STAGE_STORAGE_BLOCKS as usize {
        errors.push(LinkError::StorageBlocks {
            stage: "compute",
            upper: "COMPUTE",
            used: storage_count as u32,
        });
    }
    super::atomic_counter::check_stage(cs, "compute", &mut errors);
    let mut none = cs.clone();
    none.stage = Stage::Fragment;
    none.func = Function::default();
    none.uniforms.clear();
    none.uniform_words = 0;
    none.blocks.clear();
    none.storage_blocks.clear();
    let (uniforms, locations) = link_uniforms(cs, &none, &mut errors);
    let blocks = link_blocks(cs, &none, |m| &m.blocks, &mut errors);
    let storage_blocks = link_blocks(cs, &none, |m| &m.storage_blocks, &mut errors);
    let (atomic_counter_buffers, storage_blocks) = split_counter_buffers(storage_blocks);
    super::atomic_counter::check_names(&atomic_counter_buffers, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Linked {
        attributes: Vec::new(),
        vs_input_words: 0,
        vs_output_words: 0,
        position_slot: 0,
        fs_input_words: 0,
        varyings: Vec::new(),
        fs_output_words: 0,
        color_slots: Vec::new(),
        src1_slot: None,
        frag_outputs: Vec::new(),
        frag_depth_slot: None,
        uses_discard: false,
        early_fragment_tests: false,
        uniforms,
        locations,
        blocks,
        storage_blocks,
        atomic_counter_buffers,
        vs_uniform_words: cs.uniform_words,
        fs_uniform_words: 0,
    })
}

pub fn link(vs: &Module, fs: &Module, opts: &LinkOptions) -> Result<Linked, Vec<LinkError>> {
    let mut errors = Vec::new();
    if vs.stage != Stage::Vertex {
        errors.push(LinkError::WrongStage {
            expected: Stage::Vertex,
            found: vs.stage,
        });
    }
    if fs.stage != Stage::Fragment {
        errors.push(LinkError::WrongStage {
            expected: Stage::Fragment,
            found: fs.stage,
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if (vs.global_bindless_sampler || fs.global_bindless_sampler)
        && (vs.global_bound_sampler || fs.global_bound_sampler)
    {
        errors.push(LinkError::BindlessAndBound);
    }

    let attributes = link_attributes(vs, opts, &mut errors);
    let vs_input_words = vs
        .inputs
        .iter()
        .map(|v| v.slot + v.words.max(4 * attribute_locations(v)))
        .max()
        .unwrap_or(0);

    // gl_Position.
    let position_slot = vs
        .outputs
        .iter()
        .find(|o| o.builtin == Some(BuiltinOutput::Position))
        .map(|o| o.slot);
    if position_slot.is_none() && !opts.open_interfaces {
        errors.push(LinkError::MissingPosition);
    }

    for (m, stage, limit) in [
        (vs, "vertex", "GL_MAX_VERTEX_UNIFORM_COMPONENTS"),
        (fs, "fragment", "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS"),
    ] {
        if m.uniform_words > MAX_UNIFORM_COMPONENTS {
            errors.push(LinkError::UniformComponents {
                stage,
                used: m.uniform_words,
                limit,
            });
        }
    }
    for (m, stage, upper) in [(vs, "vertex", "VERTEX"), (fs, "fragment", "FRAGMENT")] {
        if m.blocks.len() > MAX_STAGE_UNIFORM_BLOCKS as usize {
            errors.push(LinkError::UniformBlocks {
                stage,
                upper,
                used: m.blocks.len() as u32,
            });
        }
    }
    let varyings = link_varyings(vs, fs, opts.open_interfaces, &mut errors);
    let (color_slots, frag_outputs, frag_depth_slot, src1_slot) =
        link_outputs(fs, opts, &mut errors);
    let (uniforms, locations) = link_uniforms(vs, fs, &mut errors);
    let blocks = link_blocks(vs, fs, |m| &m.blocks, &mut errors);
    for (m, stage, upper) in [(vs, "vertex", "VERTEX"), (fs, "fragment", "FRAGMENT")] {
        let storage_count = super::atomic_counter::storage_block_count(m);
        if storage_count > MAX_STAGE_STORAGE_BLOCKS as usize {
            errors.push(LinkError::StorageBlocks {
                stage,
                upper,
                used: storage_count as u32,
            });
        }
        super::atomic_counter::check_stage(m, stage, &mut errors);
    }
    super::atomic_counter::check_combined([vs, fs], &mut errors);
    let storage_blocks = link_blocks(vs, fs, |m| &m.storage_blocks, &mut errors);
    let (atomic_counter_buffers, storage_blocks) = split_counter_buffers(storage_blocks);
    super::atomic_counter::check_names(&atomic_counter_buffers, &mut errors);

    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Linked {
        attributes,
        vs_input_words,
        vs_output_words: vs.func.outputs.len() as u32,
        position_slot: position_slot.unwrap_or(0),
        fs_input_words: fs
            .inputs
            .iter()
            .map(|v| v.slot + v.words)
            .max()
            .unwrap_or(0),
        varyings,
        fs_output_words: fs.func.outputs.len() as u32,
        color_slots,
        src1_slot,
        frag_outputs,
        frag_depth_slot,
        uses_discard: fs.uses_discard,
        early_fragment_tests: fs.early_fragment_tests,
        uniforms,
        locations,
        blocks,
        storage_blocks,
        atomic_counter_buffers,
        vs_uniform_words: vs.uniform_words,
        fs_uniform_words: fs.uniform_words,
    })
}

/// Attribute locations: `layout(location)` first, then glBindAttribLocation, then the lowest
/// free locations in declaration order (GL 4.5 core §11.1.1).
fn link_attributes(vs: &Module, opts: &LinkOptions, errors: &mut Vec<LinkError>) -> Vec<Attribute> {
    let mut used = [false; MAX_VERTEX_ATTRIBS as usize];
    let mut out: Vec<Option<Attribute>> = Vec::new();
    let mut pending = Vec::new();
    for (i, v) in vs.inputs.iter().enumerate() {
        let n = attribute_locations(v);
        let explicit = v.location.or_else(|| {
            opts.attrib_bindings
                .iter()
                .rev()
                .find(|(name, _)| *name == v.name)
                .map(|(_, l)| *l)
        });
        match explicit {
            Some(loc) => {
                // In u64: a location near u32::MAX (the shader's or glBindAttribLocation's)
                // must not wrap past the limit.
                let end = u64::from(loc) + u64::from(n);
                if end > u64::from(MAX_VERTEX_ATTRIBS) {
                    errors.push(LinkError::AttributeLocation {
                        name: v.name.clone(),
                        location: loc.saturating_add(n.saturating_sub(1)),
                    });
                    out.push(None);
                    continue;
                }
                // Aliasing is allowed in desktop GL (§11.1.1): no overlap check.
                for l in loc..loc + n {
                    used[l as usize] = true;
                }
                out.push(Some(make_attribute(v, loc, n)));
            }
            None => {
                pending.push(i);
                out.push(None);
            }
        }
    }
    for i in pending {
        let v = &vs.inputs[i];
        let n = attribute_locations(v);
        let found = (0..=MAX_VERTEX_ATTRIBS.saturating_sub(n))
            .find(|&l| (l..l + n).all(|k| !used[k as usize]));
        match found {
            Some(loc) => {
                for l in loc..loc + n {
                    used[l as usize] = true;
                }
                out[i] = Some(make_attribute(v, loc, n));
            }
            None => {
                errors.push(LinkError::TooManyAttributes);
                break;
            }
        }
    }
    out.into_iter().flatten().collect()
}

fn make_attribute(v: &InterfaceVar, location: u32, locations: u32) -> Attribute {
    Attribute {
        name: v.name.clone(),
        ty: v.ty,
        array_len: v.array_len,
        location,
        locations,
        slot: v.slot,
    }
}

/// Varyings (GLSL 4.50 §4.3.4): matched by location when the fragment input has one, else by
/// name. Types must match exactly. Interpolation qualifiers must match before GLSL 4.30
/// (GLSL 3.30 §4.3.9); from 4.30 on the fragment shader's qualifier decides.
///
/// With `open` (separate shader objects, `LinkOptions::open_interfaces`) an input without
/// a matching output is skipped: it reads 0, the fragment inputs being zeroed per draw.
/// Reports user varyings of one interface (the last vertex-processing stage's outputs or
/// the fragment inputs: no per-vertex arrays) whose explicit location ranges meet.
fn check_location_overlap(dir: &'static str, vars: &[&InterfaceVar], errors: &mut Vec<LinkError>) {
    let located: Vec<(&InterfaceVar, u32, u32)> = vars
        .iter()
        .filter_map(|v| {
            let l = v.location?;
            Some((*v, l, l.saturating_add(attribute_locations(v))))
        })
        .collect();
    for (i, (a, a0, a1)) in located.iter().enumerate() {
        for (b, b0, b1) in &located[i + 1..] {
            if a0 < b1 && b0 < a1 {
                errors.push(LinkError::VaryingLocationOverlap {
                    dir,
                    a: a.name.clone(),
                    b: b.name.clone(),
                    location: *a0.max(b0),
                });
            }
        }
    }
}

fn link_varyings(
    vs: &Module,
    fs: &Module,
    open: bool,
    errors: &mut Vec<LinkError>,
) -> Vec<VaryingLink> {
    let mut links = Vec::new();
    let mut errors_here = Vec::new();
    let errors_out = errors;
    let errors = &mut errors_here;
    let vs_user: Vec<&InterfaceVar> = vs.outputs.iter().filter(|o| o.builtin.is_none()).collect();
    check_location_overlap("outputs", &vs_user, errors);
    let fs_user: Vec<&InterfaceVar> = fs.inputs.iter().filter(|i| i.builtin.is_none()).collect();
    check_location_overlap("inputs", &fs_user, errors);
    for input in &fs.inputs {
        if input.builtin == Some(BuiltinOutput::PointCoord) {
            for w in 0..2 {
                links.push(VaryingLink {
                    fs_slot: input.slot + w,
                    vs_slot: POINT_COORD_SLOT + w,
                    interpolation: Interpolation::NoPerspective,
                });
            }
            continue;
        }
        if input.builtin == Some(BuiltinOutput::PrimitiveId) {
            // Written by the geometry shader (its outputs stand in for `vs`'s here), else
            // the primitive's number the rasterizer counts.
            let vs_slot = vs
                .outputs
                .iter()
                .find(|o| o.builtin == Some(BuiltinOutput::PrimitiveId))
                .map_or(PRIMITIVE_ID_SLOT, |o| o.slot);
            links.push(VaryingLink {
                fs_slot: input.slot,
                vs_slot,
                interpolation: Interpolation::Flat,
            });
            continue;
        }
        if let Some(b @ (BuiltinOutput::Layer | BuiltinOutput::ViewportIndex)) = input.builtin {
            // The value the geometry shader wrote (its provoking vertex's, which also
            // selected the layer or viewport), out of range or not; 0 when none did.
            let vs_slot = vs
                .outputs
                .iter()
                .find(|o| o.builtin == Some(b))
                .map_or(ZERO_SLOT, |o| o.slot);
            links.push(VaryingLink {
                fs_slot: input.slot,
                vs_slot,
                interpolation: Interpolation::Flat,
            });
            continue;
        }
        if let Some(b @ (BuiltinOutput::ClipDistance | BuiltinOutput::CullDistance)) = input.builtin
        {
            // A fragment shader's gl_ClipDistance / gl_CullDistance: the vertex shader's
            // values, interpolated (GL_ARB_cull_distance), as far as both arrays reach.
            let Some(out) = vs.outputs.iter().find(|o| o.builtin == Some(b)) else {
                errors.push(LinkError::VaryingMissing {
                    name: input.name.clone(),
                });
                continue;
            };
            for w in 0..input.words.min(out.words) {
                links.push(VaryingLink {
                    fs_slot: input.slot + w,
                    vs_slot: out.slot + w,
                    interpolation: Interpolation::Smooth,
                });
            }
            continue;
        }
        // An input with a location matches the output of that location only; names match
        // where the input has none (GL 4.5 core §7.4.1; Mesa's linker does the same).
        let by_loc = input
            .location
            .and_then(|l| vs_user.iter().find(|o| o.location == Some(l)));
        let by_name = || {
            vs_user
                .iter()
                .find(|o| input.location.is_none() && o.name == input.name)
        };
        let Some(out) = by_loc.or_else(by_name) else {
            errors.push(LinkError::VaryingMissing {
                name: input.name.clone(),
            });
            continue;
        };
        if out.ty != input.ty || out.array_len != input.array_len {
            errors.push(LinkError::VaryingType {
                name: input.name.clone(),
                vs: type_name(out.ty, out.array_len),
                fs: type_name(input.ty, input.array_len),
            });
            continue;
        }
        // Across separable programs the fragment stage's qualifier decides (the values
        // are undefined by GL 4.5 core §7.4.1 otherwise; interpolating as the reader asks
        // is what Mesa does).
        if !open && vs.version.min(fs.version) < 430 && out.interpolation != input.interpolation {
            errors.push(LinkError::VaryingInterpolation {
                name: input.name.clone(),
                vs: out.interpolation,
                fs: input.interpolation,
            });
            continue;
        }
        for w in 0..input.words.min(out.words) {
            links.push(VaryingLink {
                fs_slot: input.slot + w,
                vs_slot: out.slot + w,
                interpolation: input.interpolation,
            });
        }
    }
    if !open {
        errors_out.append(errors);
    }
    links
}

/// Colour outputs by location: `layout(location)` first, then glBindFragDataLocation, then
/// the lowest free locations in declaration order (a lone output gets 0, GLSL 4.50 §4.4.2);
/// array elements on consecutive locations; and gl_FragDepth.
///
/// The second source colour of dual-source blending (`layout(index = 1)`, or a name bound
/// with index 1 where there is no layout) is the fourth result: its first word, at location
/// 0 only (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1).
#[allow(clippy::type_complexity)]
fn link_outputs(
    fs: &Module,
    opts: &LinkOptions,
    errors: &mut Vec<LinkError>,
) -> (Vec<Option<u32>>, Vec<FragOutput>, Option<u32>, Option<u32>) {
    let mut colors: Vec<Option<(u32, &str)>> = Vec::new();
    let mut named = Vec::new();
    let mut depth = None;
    let mut src1: Option<u32> = None;
    let bound1 = |o: &InterfaceVar| o.location.is_none() && opts.frag_data_index1.contains(&o.name);
    let user: Vec<&InterfaceVar> = fs
        .outputs
        .iter()
        .filter(|o| {
            if o.builtin == Some(BuiltinOutput::FragDepth) {
                depth = Some(o.slot);
            }
            let dual = o.builtin == Some(BuiltinOutput::DualSourceColor)
                || (o.builtin.is_none() && bound1(o));
            if dual {
                let location = o.location.unwrap_or(0);
                if location >= MAX_DUAL_SOURCE_DRAW_BUFFERS || o.array_len.is_some_and(|n| n > 1) {
                    errors.push(LinkError::DualSourceLocation {
                        name: o.name.clone(),
                        location,
                    });
                } else if src1.is_some() {
                    errors.push(LinkError::DualSourceTwice {
                        name: o.name.clone(),
                    });
                } else {
                    src1 = Some(o.slot);
                    named.push(FragOutput {
                        name: o.name.clone(),
                        ty: o.ty,
                        location,
                        array_len: o.array_len,
                        index: 1,
                    });
                }
            }
            o.builtin.is_none() && !dual
        })
        .collect();
    let bound = |o: &InterfaceVar| {
        opts.frag_data_bindings
            .iter()
            .find(|(n, _)| *n == o.name)
            .map(|&(_, l)| l)
    };
    // Pass 0: layout(location); pass 1: bindings; pass 2: the rest.
    for pass in 0..3 {
        for &o in &user {
            let base = match (pass, o.location, bound(o)) {
                (0, Some(l), _) => l,
                (1, None, Some(l)) => l,
                (2, None, None) => {
                    let n = o.array_len.unwrap_or(1) as usize;
                    (0..)
                        .find(|&b: &usize| {
                            (b..b + n).all(|l| colors.get(l).is_none_or(|c| c.is_none()))
                        })
                        .unwrap_or(0) as u32
                }
                _ => continue,
            };
            let n = o.array_len.unwrap_or(1);
            if !o.name.starts_with("gl_") {
                named.push(FragOutput {
                    name: o.name.clone(),
                    ty: o.ty,
                    location: base,
                    array_len: o.array_len,
                    index: 0,
                });
            }
            let per = o.words.checked_div(n).unwrap_or(0);
            for i in 0..n {
                let loc = base + i;
                if loc >= MAX_DRAW_BUFFERS {
                    errors.push(LinkError::OutputRange {
                        name: o.name.clone(),
                        location: loc,
                    });
                    break;
                }
                if colors.len() <= loc as usize {
                    colors.resize(loc as usize + 1, None);
                }
                if let Some((_, other)) = colors[loc as usize] {
                    errors.push(LinkError::OutputLocation {
                        a: other.to_string(),
                        b: o.name.clone(),
                        location: loc,
                    });
                    continue;
                }
                colors[loc as usize] = Some((o.slot + i * per, &o.name));
            }
        }
    }
    (
        colors.into_iter().map(|c| c.map(|(s, _)| s)).collect(),
        named,
        depth,
        src1,
    )
}

/// The program-wide default-block uniform table: the union of both stages by name; a name
/// in both must have the same type (GLSL 4.50 §4.3.5). Locations in declaration order,
/// vertex stage first, one per array element.
fn link_uniforms(
    vs: &Module,
    fs: &Module,
    errors: &mut Vec<LinkError>,
) -> (Vec<Uniform>, Vec<(u32, u32)>) {
    let mut uniforms: Vec<Uniform> = Vec::new();
    // Name → index in `uniforms`: linear in the number of uniforms (100,000 of them took
    // over 20 s with a search per name).
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (stage, m) in [vs, fs].into_iter().enumerate() {
        for d in &m.uniforms {
            if let Some(u) = by_name.get(d.name.as_str()).map(|&i| &mut uniforms[i]) {
                if u.ty != d.ty || u.array_len != d.array_len {
                    errors.push(LinkError::UniformType {
                        name: d.name.clone(),
                    });
                    continue;
                }
                merge_init(&mut u.init, &d.init, &d.name, errors);
                merge_location(&mut u.explicit_location, d.location, &d.name, errors);
                u.offsets[stage] = Some(d.offset);
                u.bindless |= d.bindless;
                u.bound |= d.bound;
                u.binding = u.binding.or(d.binding);
            } else {
                by_name.insert(&d.name, uniforms.len());
                uniforms.push(make_uniform(d, stage));
            }
        }
    }
    // The hidden subroutine selections (`ir::subroutine`) go last and get no location: no
    // glUniform* reaches them, and the others keep index = position.
    uniforms.sort_by_key(|u| super::subroutine::hidden_uniform_stage(&u.name).is_some());
    let locations = assign_locations(&mut uniforms, errors);
    (uniforms, locations)
}

/// Uniform locations (GL_ARB_explicit_uniform_location, GL 4.5 core §7.3.1): first the
/// explicit ones (each element at its own, none shared, all below
/// GL_MAX_UNIFORM_LOCATIONS), then every other uniform, in order, at the first run of free
/// locations after the one before it. Returns the table `Linked::locations`.
fn assign_locations(uniforms: &mut [Uniform], errors: &mut Vec<LinkError>) -> Vec<(u32, u32)> {
    let hidden = |u: &Uniform| super::subroutine::hidden_uniform_stage(&u.name).is_some();
    let mut locations: Vec<(u32, u32)> = Vec::new();
    for i in 0..uniforms.len() {
        let u = &uniforms[i];
        let (Some(first), false) = (u.explicit_location, hidden(u)) else {
            continue;
        };
        let n = u.elements();
        let end = u64::from(first) + u64::from(n);
        if end > u64::from(MAX_UNIFORM_LOCATIONS) {
            errors.push(LinkError::UniformLocationRange {
                name: u.name.clone(),
                location: (end - 1).min(u64::from(u32::MAX)) as u32,
            });
            continue;
        }
        if locations.len() < end as usize {
            locations.resize(end as usize, FREE_LOCATION);
        }
        for e in 0..n {
            let at = (first + e) as usize;
            if locations[at] != FREE_LOCATION {
                errors.push(LinkError::UniformLocationOverlap {
                    a: uniforms[locations[at].0 as usize].name.clone(),
                    b: uniforms[i].name.clone(),
                    location: at as u32,
                });
                break;
            }
            locations[at] = (i as u32, e);
        }
        uniforms[i].location = first;
    }
    let mut next = 0usize;
    for (i, u) in uniforms.iter_mut().enumerate() {
        if u.explicit_location.is_some() || hidden(u) {
            continue;
        }
        let n = u.elements() as usize;
        let mut at = next;
        // Linear overall: `at` only moves forward, past explicit locations in the way.
        while let Some(k) = (at..at + n)
            .rev()
            .find(|&k| locations.get(k).is_some_and(|l| *l != FREE_LOCATION))
        {
            at = k + 1;
        }
        if locations.len() < at + n {
            locations.resize(at + n, FREE_LOCATION);
        }
        for e in 0..n {
            locations[at + e] = (i as u32, e as u32);
        }
        u.location = at as u32;
        next = at + n;
        if locations.len() > MAX_UNIFORM_LOCATIONS as usize {
            errors.push(LinkError::UniformLocationRange {
                name: u.name.clone(),
                location: locations.len() as u32 - 1,
            });
            break;
        }
    }
    for u in uniforms.iter_mut().filter(|u| hidden(u)) {
        u.location = locations.len() as u32;
    }
    locations
}

/// One uniform's explicit location as two stages declare it: a stage without one takes
/// the other's; two must be equal.
pub(crate) fn merge_location(
    into: &mut Option<u32>,
    from: Option<u32>,
    name: &str,
    errors: &mut Vec<LinkError>,
) {
    match (*into, from) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::UniformLocationMismatch {
            name: name.to_string(),
        }),
        (None, Some(b)) => *into = Some(b),
        _ => {}
    }
}

fn make_uniform(d: &UniformDecl, stage: usize) -> Uniform {
    let mut offsets = [None, None];
    offsets[stage] = Some(d.offset);
    Uniform {
        name: d.name.clone(),
        ty: d.ty,
        array_len: d.array_len,
        stride: d.stride.max(d.ty.words()),
        offsets,
        bindless: d.bindless,
        bound: d.bound,
        binding: d.binding,
        location: 0,
        explicit_location: d.location,
        init: d.init.clone(),
    }
}

/// One uniform's initializer as two stages declare it (GLSL 4.60 §4.3.5): a stage without
/// one takes the other's; two must be equal.
pub(crate) fn merge_init(
    into: &mut Option<Vec<u32>>,
    from: &Option<Vec<u32>>,
    name: &str,
    errors: &mut Vec<LinkError>,
) {
    match (into.as_ref(), from) {
        (Some(a), Some(b)) if a != b => errors.push(LinkError::UniformInitializer {
            name: name.to_string(),
        }),
        (None, Some(b)) => *into = Some(b.clone()),
        _ => {}
    }
}

/// Uniform (or storage) blocks by name (GLSL 4.50 §4.3.9: same name → same members and
/// layout); `of` picks the modules' uniform or storage blocks.
fn link_blocks<'m>(
    vs: &'m Module,
    fs: &'m Module,
    of: impl Fn(&'m Module) -> &'m Vec<crate::ir::BlockDecl>,
    errors: &mut Vec<LinkError>,
) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (stage, m) in [vs, fs].into_iter().enumerate() {
        for (i, b) in of(m).iter().enumerate() {
            if let Some(existing) = by_name.get(b.name.as_str()).map(|&k| &mut blocks[k]) {
                if let Some(binding) = super::atomic_counter::buffer_binding(&b.name) {
                    // One buffer, counters of both stages (`ir::atomic_counter`).
                    super::atomic_counter::merge_counters(
                        &mut existing.members,
                        &b.members,
                        binding,
                        errors,
                    );
                    existing.size = super::atomic_counter::buffer_size(&existing.members);
                    existing.stage_index[stage] = Some(i as u32);
                    continue;
                }
                let other_stage = 1 - stage;
                let other = existing.stage_index[other_stage]
                    .and_then(|k| of([vs, fs][other_stage]).get(k as usize));
                // GL 4.5 core §7.6.2, §7.8: a block several stages declare is declared
                // identically in each; two explicit `layout(binding)`s that differ are not.
                let bindings_differ = |o: &crate::ir::BlockDecl| matches!((o.binding, b.binding), (Some(x), Some(y)) if x != y);
                if other.is_some_and(|o| {
                    o.members != b.members || o.size != b.size || bindings_differ(o)
                }) {
                    errors.push(LinkError::BlockMismatch {
                        name: b.name.clone(),
                    });
                    continue;
                }
                existing.stage_index[stage] = Some(i as u32);
                if existing.binding == 0 {
                    existing.binding = b.binding.unwrap_or(0);
                }
            } else {
                let mut stage_index = [None, None];
                stage_index[stage] = Some(i as u32);
                by_name.insert(&b.name, blocks.len());
                blocks.push(Block {
                    name: b.name.clone(),
                    size: b.size,
                    binding: b.binding.unwrap_or(0),
                    stage_index,
                    members: b.members.clone(),
                });
            }
        }
    }
    // GLSL 4.60 §4.3.9: a block array's size is part of the interface; `B` (no array),
    // `B[0..2]` and `B[0..3]` in two stages do not match.
    let shape = |m: &'m Module| {
        let mut shapes: HashMap<&'m str, Option<u32>> = HashMap::new();
        for b in of(m) {
            match b.name.split_once('[') {
                Some((base, _)) => *shapes.entry(base).or_insert(Some(0)).get_or_insert(0) += 1,
                None => {
                    shapes.insert(b.name.as_str(), None);
                }
            }
        }
        shapes
    };
    let (a, b) = (shape(vs), shape(fs));
    let mut mismatched: Vec<&str> = a
        .iter()
        .filter(|(name, n)| b.get(*name).is_some_and(|m| m != *n))
        .map(|(name, _)| *name)
        .collect();
    mismatched.sort_unstable();
    for name in mismatched {
        errors.push(LinkError::BlockMismatch {
            name: name.to_string(),
        });
    }
    blocks
}

/// Splits linked storage blocks into (atomic counter buffers, shader storage blocks).
fn split_counter_buffers(blocks: Vec<Block>) -> (Vec<Block>, Vec<Block>) {
    blocks
        .into_iter()
        .partition(|b| super::atomic_counter::buffer_binding(&b.name).is_some())
}

/// Hand-built modules for tests here and in `api` (the GLSL front end is separate work).
#[cfg(test)]
pub(crate) mod testing {
    use crate::ir::*;

    pub fn var(name: &str, ty: ValueType, slot: u32) -> InterfaceVar {
        InterfaceVar {
            name: name.to_string(),
            ty,
            array_len: None,
            location: None,
            slot,
            words: ty.words(),
            interpolation: Interpolation::Smooth,
            builtin: None,
        }
    }

    pub fn vec(n: u8) -> ValueType {
        ValueType::new(BaseType::Float, n, 1)
    }

    pub fn empty(stage: Stage) -> Module {
        Module {
            stage,
            version: 450,
            func: Function::default(),
            inputs: vec![],
            outputs: vec![],
            uniforms: vec![],
            uniform_words: 0,
            blocks: vec![],
            storage_blocks: vec![],
            uses_discard: false,
            writes_depth: false,
            early_fragment_tests: false,
            frag_coord_origin_upper_left: false,
            frag_coord_pixel_center_integer: false,
            global_bindless_sampler: false,
            global_bound_sampler: false,
            local_size: [0; 3],
            shared_bytes: 0,
            geometry: Default::default(),
            xfb: Default::default(),
            tess: Default::default(),
            subroutines: Default::default(),
        }
    }

    /// Adds a uniform at the end of the module's default block.
    pub fn add_uniform(m: &mut Module, name: &str, ty: ValueType, array_len: Option<u32>) {
        let words = ty.words() * array_len.unwrap_or(1);
        m.uniforms.push(UniformDecl {
            name: name.to_string(),
            ty,
            array_len,
            offset: m.uniform_words,
            stride: ty.words(),
            bindless: false,
            bound: false,
            binding: None,
            init: None,
            location: None,
        });
        m.uniform_words += words;
    }

    /// Sets the module's output vars so `output_words` matches the interface.
    fn size_outputs(m: &mut Module) {
        let n = m
            .outputs
            .iter()
            .map(|o| o.slot + o.words)
            .max()
            .unwrap_or(0);
        m.func.vars = vec![ScalarKind::F32];
        m.func.outputs = vec![Var(0); n as usize];
    }

    /// `in vec4 pos; out vec4 color; gl_Position = pos;`
    pub fn vertex() -> Module {
        let mut m = empty(Stage::Vertex);
        let mut pos = var("pos", vec(4), 0);
        pos.location = Some(0);
        m.inputs.push(pos);
        m.inputs.push(var("extra", vec(2), 4));
        let mut p = var("gl_Position", vec(4), 0);
        p.builtin = Some(BuiltinOutput::Position);
        m.outputs.push(p);
        m.outputs.push(var("color", vec(4), 4));
        size_outputs(&mut m);
        m
    }

    /// `in vec4 color; out vec4 frag;`
    pub fn fragment() -> Module {
        let mut m = empty(Stage::Fragment);
        m.inputs.push(var("color", vec(4), 0));
        m.outputs.push(var("frag", vec(4), 0));
        size_outputs(&mut m);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::ir::*;

    #[test]
    fn links_varyings_positions_and_outputs() {
        let l = link(&vertex(), &fragment(), &LinkOptions::default()).unwrap();
        assert_eq!(l.position_slot, 0);
        assert_eq!(l.varyings.len(), 4);
        assert_eq!(l.varyings[1].fs_slot, 1);
        assert_eq!(l.varyings[1].vs_slot, 5);
        assert_eq!(l.color_slots, vec![Some(0)]);
        assert_eq!(l.vs_output_words, 8);
        // `pos` keeps its layout location; `extra` gets the lowest free one.
        assert_eq!(l.attrib_location("pos"), Some(0));
        assert_eq!(l.attrib_location("extra"), Some(1));
    }

    #[test]
    fn bind_attrib_location_applies_without_layout() {
        let opts = LinkOptions {
            attrib_bindings: vec![("extra".into(), 7), ("pos".into(), 3)],
            ..LinkOptions::default()
        };
        let l = link(&vertex(), &fragment(), &opts).unwrap();
        assert_eq!(l.attrib_location("extra"), Some(7));
        assert_eq!(l.attrib_location("pos"), Some(0), "layout(location) wins");
        let bad = LinkOptions {
            attrib_bindings: vec![("extra".into(), 16)],
            ..LinkOptions::default()
        };
        let e = link(&vertex(), &fragment(), &bad).unwrap_err();
        assert!(matches!(e[0], LinkError::AttributeLocation { .. }));
    }

    #[test]
    fn missing_and_mistyped_varyings_fail() {
        let mut fs = fragment();
        fs.inputs.push(var("nowhere", vec(2), 4));
        let e = link(&vertex(), &fs, &LinkOptions::default()).unwrap_err();
        assert_eq!(
            e,
            vec![LinkError::VaryingMissing {
                name: "nowhere".into()
            }]
        );
        let mut fs = fragment();
        fs.inputs[0].ty = vec(3);
        let e = link(&vertex(), &fs, &LinkOptions::default()).unwrap_err();
        assert!(
            matches!(&e[0], LinkError::VaryingType { vs, fs, .. } if vs == "vec4" && fs == "vec3")
        );
    }

    #[test]
    fn interpolation_must_match_before_430_only() {
        let mut fs = fragment();
        fs.inputs[0].interpolation = Interpolation::Flat;
        assert!(link(&vertex(), &fs, &LinkOptions::default()).is_ok());
        fs.version = 330;
        let e = link(&vertex(), &fs, &LinkOptions::default()).unwrap_err();
        assert!(matches!(e[0], LinkError::VaryingInterpolation { .. }));
    }

    #[test]
    fn varyings_match_by_location() {
        let mut vs = vertex();
        vs.outputs[1].name = "a".into();
        vs.outputs[1].location = Some(2);
        let mut fs = fragment();
        fs.inputs[0].location = Some(2);
        let l = link(&vs, &fs, &LinkOptions::default()).unwrap();
        assert_eq!(l.varyings[0].vs_slot, 4);
    }

    #[test]
    fn wide_attributes_take_several_locations() {
        let mut vs = vertex();
        vs.inputs[1].ty = ValueType::new(BaseType::Uint64, 3, 1);
        vs.inputs[1].words = 6;
        vs.inputs
            .push(var("mat", ValueType::new(BaseType::Float, 4, 4), 12));
        let l = link(&vs, &fragment(), &LinkOptions::default()).unwrap();
        let wide = &l.attributes[1];
        assert_eq!((wide.location, wide.locations), (1, 2));
        assert_eq!(wide.fetch_offsets().collect::<Vec<_>>(), vec![0]);
        let mat = &l.attributes[2];
        assert_eq!((mat.location, mat.locations), (3, 4));
        assert_eq!(mat.fetch_offsets().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(mat.slot_of(2), 20);
        assert_eq!(l.vs_input_words, 28);
    }

    #[test]
    fn missing_position_fails() {
        let mut vs = vertex();
        vs.outputs.remove(0);
        let e = link(&vs, &fragment(), &LinkOptions::default()).unwrap_err();
        assert!(e.contains(&LinkError::MissingPosition));
    }

    #[test]
    fn uniforms_merge_and_get_locations() {
        let mut vs = vertex();
        let mut fs = fragment();
        add_uniform(&mut vs, "m", ValueType::new(BaseType::Float, 4, 4), None);
        add_uniform(&mut vs, "shared", vec(4), None);
        add_uniform(&mut fs, "arr[0]", vec(2), Some(3));
        add_uniform(&mut fs, "shared", vec(4), None);
        let l = link(&vs, &fs, &LinkOptions::default()).unwrap();
        assert_eq!(l.uniforms.len(), 3);
        let shared = &l.uniforms[1];
        assert_eq!(shared.offsets, [Some(16), Some(6)]);
        assert_eq!(l.uniform_location("m"), Some(0));
        assert_eq!(l.uniform_location("shared"), Some(1));
        assert_eq!(l.uniform_location("arr"), Some(2));
        assert_eq!(l.uniform_location("arr[0]"), Some(2));
        assert_eq!(l.uniform_location("arr[2]"), Some(4));
        assert_eq!(l.uniform_location("arr[3]"), None);
        assert_eq!(l.uniform_location("nope"), None);
        assert_eq!(l.locations[4], (2, 2));

        add_uniform(&mut fs, "m", vec(4), None);
        let e = link(&vs, &fs, &LinkOptions::default()).unwrap_err();
        assert_eq!(e, vec![LinkError::UniformType { name: "m".into() }]);
    }

    #[test]
    fn bindless_and_bound_globals_fail_across_stages() {
        let mut vs = vertex();
        vs.global_bindless_sampler = true;
        let mut fs = fragment();
        assert!(link(&vs, &fs, &LinkOptions::default()).is_ok());
        fs.global_bound_sampler = true;
        let e = link(&vs, &fs, &LinkOptions::default()).unwrap_err();
        assert_eq!(e, vec![LinkError::BindlessAndBound]);
    }

    #[test]
    fn blocks_merge_by_name() {
        let mut vs = vertex();
        let mut fs = fragment();
        let block = BlockDecl {
            name: "B".into(),
            binding: Some(3),
            size: 16,
            members: vec![],
        };
        vs.blocks.push(block.clone());
        fs.blocks.push(BlockDecl {
            name: "C".into(),
            binding: None,
            size: 4,
            members: vec![],
        });
        fs.blocks.push(block.clone());
        let l = link(&vs, &fs, &LinkOptions::default()).unwrap();
        assert_eq!(l.blocks.len(), 2);
        assert_eq!(l.blocks[0].stage_index, [Some(0), Some(1)]);
        assert_eq!(l.blocks[0].binding, 3);
        assert_eq!(l.block_index("C"), Some(1));
        fs.blocks[1].size = 32;
        let e = link(&vs, &fs, &LinkOptions::default()).unwrap_err();
        assert_eq!(e, vec![LinkError::BlockMismatch { name: "B".into() }]);
    }

    /// A stage may use GL_MAX_{VERTEX,FRAGMENT}_UNIFORM_BLOCKS blocks; one more fails the
    /// link with a message naming the limit.
    #[test]
    fn uniform_blocks_per_stage_are_limited() {
        let vs = vertex();
        let mut fs = fragment();
        for i in 0..MAX_STAGE_UNIFORM_BLOCKS {
            fs.blocks.push(BlockDecl {
                name: format!("B{i}"),
                binding: None,
                size: 16,
                members: vec![],
            });
        }
        assert!(link(&vs, &fs, &LinkOptions::default()).is_ok());
        fs.blocks.push(BlockDecl {
            name: "one_more".into(),
            binding: None,
            size: 16,
            members: vec![],
        });
        let e = link(&vs, &fs, &LinkOptions::default()).unwrap_err();
        assert_eq!(
            e,
            vec![LinkError::UniformBlocks {
                stage: "fragment",
                upper: "FRAGMENT",
                used: MAX_STAGE_UNIFORM_BLOCKS + 1,
            }]
        );
        assert!(e[0]
            .to_string()
            .contains("GL_MAX_FRAGMENT_UNIFORM_BLOCKS (18)"));
    }

    #[test]
    fn output_locations_conflict() {
        let mut fs = fragment();
        // Both explicit: an output without a location would take a free one instead.
        fs.outputs[0].location = Some(0);
        let mut second = var("other", vec(4), 4);
        second.location = Some(0);
        fs.outputs.push(second);
        let e = link(&vertex(), &fs, &LinkOptions::default()).unwrap_err();
        assert!(matches!(
            e[0],
            LinkError::OutputLocation { location: 0, .. }
        ));
    }

    #[test]
    fn a_dvec4_varying_takes_two_locations() {
        // GLSL 4.60 §4.4.1: dvec3 and dvec4 take two locations, so a second varying at
        // location 1 overlaps one at 0 (piglit's vs-to-fs-explicit-location-overlap).
        let dvec4 = ValueType::new(BaseType::Double, 4, 1);
        let with = |second_at: u32| {
            let mut vs = vertex();
            vs.outputs.truncate(1);
            let mut a = var("d1", dvec4, 4);
            a.location = Some(0);
            let mut b = var("d2", dvec4, 12);
            b.location = Some(second_at);
            vs.outputs.extend([a, b]);
            let n = vs
                .outputs
                .iter()
                .map(|o| o.slot + o.words)
                .max()
                .unwrap_or(0);
            vs.func.outputs = vec![Var(0); n as usize];
            let mut fs = fragment();
            fs.inputs.clear();
            link(&vs, &fs, &LinkOptions::default())
        };
        let e = with(1).unwrap_err();
        assert!(
            e.iter()
                .any(|e| matches!(e, LinkError::VaryingLocationOverlap { location: 1, .. })),
            "{e:?}"
        );
        assert!(with(2).is_ok());
    }

    #[test]
    fn frag_data_bindings_apply_where_layout_is_absent() {
        let mut fs = fragment();
        fs.outputs.push(var("other", vec(4), 4));
        let mut third = var("third", vec(4), 8);
        third.location = Some(1);
        fs.outputs.push(third);
        let opts = LinkOptions {
            frag_data_bindings: vec![("other".into(), 0), ("third".into(), 5)],
            ..LinkOptions::default()
        };
        let l = link(&vertex(), &fs, &opts).unwrap();
        // layout(location = 1) wins over the binding to 5; `other` is bound to 0; `frag`
        // takes the lowest free location.
        assert_eq!(l.color_slots, vec![Some(4), Some(8), Some(0)]);
        assert_eq!(l.frag_data_location("other"), Some(0));
        assert_eq!(l.frag_data_location("third"), Some(1));
        assert_eq!(l.frag_data_location("frag"), Some(2));
        assert_eq!(l.frag_data_location("missing"), None);
        // Without bindings, declaration order after the explicit location.
        let l = link(&vertex(), &fs, &LinkOptions::default()).unwrap();
        assert_eq!(l.color_slots, vec![Some(0), Some(8), Some(4)]);
        // Two outputs bound to one location conflict.
        let both = LinkOptions {
            frag_data_bindings: vec![("other".into(), 3), ("frag".into(), 3)],
            ..LinkOptions::default()
        };
        let e = link(&vertex(), &fs, &both).unwrap_err();
        assert!(matches!(
            e[0],
            LinkError::OutputLocation { location: 3, .. }
        ));
    }
}
