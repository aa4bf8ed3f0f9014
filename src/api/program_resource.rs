//! Program interface queries (GL 4.5 core §7.3.1, ARB_program_interface_query):
//! glGetProgramInterfaceiv, glGetProgramResourceIndex, glGetProgramResourceName,
//! glGetProgramResourceiv, glGetProgramResourceLocation and
//! glGetProgramResourceLocationIndex over a linked program's uniforms, uniform blocks,
//! shader storage blocks and their buffer variables, vertex inputs and fragment outputs,
//! transform feedback varyings and buffers (`transform_feedback.rs`' layout), atomic
//! counter buffers, and each stage's subroutines and subroutine uniforms
//! (`subroutine::subroutine_resources`).

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::program::Executable;
use crate::api::stage_refs::{stages_of, StageMask};
use crate::gl::enums as gl;
use crate::ir::link::Linked;

/// The interfaces of GL 4.5 core table 7.1 that softgl can have resources in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Interface {
    Uniform,
    UniformBlock,
    ShaderStorageBlock,
    BufferVariable,
    ProgramInput,
    ProgramOutput,
    TransformFeedbackVarying,
    TransformFeedbackBuffer,
    AtomicCounterBuffer,
    /// `*_SUBROUTINE` (`uniforms` false) or `*_SUBROUTINE_UNIFORM` of a stage.
    Subroutine {
        stage: crate::ir::Stage,
        uniforms: bool,
    },
}

impl Interface {
    fn from_gl(e: u32) -> GlResult<Interface> {
        use crate::ir::Stage;
        let sub = |stage, uniforms| Interface::Subroutine { stage, uniforms };
        Ok(match e {
            gl::UNIFORM => Interface::Uniform,
            gl::UNIFORM_BLOCK => Interface::UniformBlock,
            gl::PROGRAM_INPUT => Interface::ProgramInput,
            gl::PROGRAM_OUTPUT => Interface::ProgramOutput,
            gl::ATOMIC_COUNTER_BUFFER => Interface::AtomicCounterBuffer,
            gl::TRANSFORM_FEEDBACK_BUFFER => Interface::TransformFeedbackBuffer,
            gl::TRANSFORM_FEEDBACK_VARYING => Interface::TransformFeedbackVarying,
            gl::SHADER_STORAGE_BLOCK => Interface::ShaderStorageBlock,
            gl::BUFFER_VARIABLE => Interface::BufferVariable,
            gl::VERTEX_SUBROUTINE => sub(Stage::Vertex, false),
            gl::TESS_CONTROL_SUBROUTINE => sub(Stage::TessControl, false),
            gl::TESS_EVALUATION_SUBROUTINE => sub(Stage::TessEval, false),
            gl::GEOMETRY_SUBROUTINE => sub(Stage::Geometry, false),
            gl::FRAGMENT_SUBROUTINE => sub(Stage::Fragment, false),
            gl::COMPUTE_SUBROUTINE => sub(Stage::Compute, false),
            gl::VERTEX_SUBROUTINE_UNIFORM => sub(Stage::Vertex, true),
            gl::TESS_CONTROL_SUBROUTINE_UNIFORM => sub(Stage::TessControl, true),
            gl::TESS_EVALUATION_SUBROUTINE_UNIFORM => sub(Stage::TessEval, true),
            gl::GEOMETRY_SUBROUTINE_UNIFORM => sub(Stage::Geometry, true),
            gl::FRAGMENT_SUBROUTINE_UNIFORM => sub(Stage::Fragment, true),
            gl::COMPUTE_SUBROUTINE_UNIFORM => sub(Stage::Compute, true),
            _ => return Err(GlError::BadEnum("program interface", e)),
        })
    }

    /// Whether the interface's resources have names (not ATOMIC_COUNTER_BUFFER or
    /// TRANSFORM_FEEDBACK_BUFFER).
    fn named(self) -> bool {
        !matches!(
            self,
            Interface::TransformFeedbackBuffer | Interface::AtomicCounterBuffer
        )
    }

    /// Whether its resources hold active variables (GL_NUM_ACTIVE_VARIABLES applies).
    fn has_variables(self) -> bool {
        matches!(
            self,
            Interface::UniformBlock
                | Interface::ShaderStorageBlock
                | Interface::TransformFeedbackBuffer
                | Interface::AtomicCounterBuffer
        )
    }
}

/// One resource as the queries see it.
struct Resource {
    name: String,
    /// (property, value) pairs valid for the resource's interface; a property of table 7.2
    /// absent here is INVALID_OPERATION for this interface.
    props: Vec<(u32, Vec<i32>)>,
}

/// The REFERENCED_BY_* properties of a resource the stages of `stages` reference.
fn referenced_by(stages: StageMask) -> [(u32, Vec<i32>); 6] {
    let at = |k: usize| vec![stages.has(k) as i32];
    // The order of `stage_refs::STAGE_ORDER`.
    [
        (gl::REFERENCED_BY_VERTEX_SHADER, at(0)),
        (gl::REFERENCED_BY_TESS_CONTROL_SHADER, at(1)),
        (gl::REFERENCED_BY_TESS_EVALUATION_SHADER, at(2)),
        (gl::REFERENCED_BY_GEOMETRY_SHADER, at(3)),
        (gl::REFERENCED_BY_FRAGMENT_SHADER, at(4)),
        (gl::REFERENCED_BY_COMPUTE_SHADER, at(5)),
    ]
}

/// The active resources of `interface` in `e`, in index order (the order of the older
/// GetActive* queries, so an index means the same resource in both).
fn resources(e: &Executable, interface: Interface) -> Vec<Resource> {
    let l = &e.linked;
    let block_bindings = &e.block_bindings;
    let storage_bindings = &e.storage_bindings;
    let mut out = Vec::new();
    match interface {
        Interface::ShaderStorageBlock => {
            let vars = buffer_variables(l);
            for (bi, b) in l.storage_blocks.iter().enumerate() {
                let members: Vec<i32> = (vars.iter().enumerate())
                    .filter(|(_, v)| v.0 == bi)
                    .map(|(i, _)| i as i32)
                    .collect();
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![b.name.len() as i32 + 1]),
                    (
                        gl::BUFFER_BINDING,
                        vec![storage_bindings.get(bi).copied().unwrap_or(b.binding) as i32],
                    ),
                    (gl::BUFFER_DATA_SIZE, vec![b.size as i32]),
                    (gl::NUM_ACTIVE_VARIABLES, vec![members.len() as i32]),
                    (gl::ACTIVE_VARIABLES, members),
                ];
                let slots = b.stage_index.map(|i| i.is_some());
                props.extend(referenced_by(stages_of(e, slots, |r| {
                    r.storage_block(&b.name)
                })));
                out.push(Resource {
                    name: b.name.clone(),
                    props,
                });
            }
        }
        Interface::BufferVariable => {
            for (bi, m) in buffer_variables(l) {
                let b = &l.storage_blocks[bi];
                // Top-level arrays: a member that is an array of basic types (its only
                // `[`) is its own top-level array; leaves of arrays of structs report 1
                // and 0 (their top-level size is not kept in the reflection).
                let (top_size, top_stride) = match m.array_len {
                    Some(n) if m.name.matches('[').count() == 1 => {
                        (n as i32, m.array_stride as i32)
                    }
                    _ => (1, 0),
                };
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![m.name.len() as i32 + 1]),
                    (gl::TYPE, vec![m.ty.gl_enum() as i32]),
                    (gl::ARRAY_SIZE, vec![m.array_len.unwrap_or(1) as i32]),
                    (gl::OFFSET, vec![m.offset as i32]),
                    (gl::BLOCK_INDEX, vec![bi as i32]),
                    (gl::ARRAY_STRIDE, vec![m.array_stride as i32]),
                    (gl::MATRIX_STRIDE, vec![m.matrix_stride as i32]),
                    (gl::IS_ROW_MAJOR, vec![m.row_major as i32]),
                    (gl::TOP_LEVEL_ARRAY_SIZE, vec![top_size]),
                    (gl::TOP_LEVEL_ARRAY_STRIDE, vec![top_stride]),
                ];
                let slots = b.stage_index.map(|i| i.is_some());
                props.extend(referenced_by(stages_of(e, slots, |r| {
                    r.storage_block(&b.name)
                })));
                out.push(Resource {
                    name: m.name.clone(),
                    props,
                });
            }
        }
        Interface::Uniform => {
            for (i, u) in l.active_uniforms().enumerate() {
                let (stages, location) = match l.uniforms.get(i) {
                    Some(d) if u.block_index < 0 && u.atomic_buffer < 0 => (
                        stages_of(e, d.offsets.map(|o| o.is_some()), |r| r.uniform(&d.name)),
                        d.location as i32,
                    ),
                    // Atomic counters have no location (GL 4.5 core §7.3.1.1).
                    _ if u.atomic_buffer >= 0 => {
                        let b = &l.atomic_counter_buffers[u.atomic_buffer as usize];
                        let slots = b.stage_index.map(|i| i.is_some());
                        (stages_of(e, slots, |r| r.storage_block(&b.name)), -1)
                    }
                    _ => {
                        let b = &l.blocks[u.block_index as usize];
                        let slots = b.stage_index.map(|i| i.is_some());
                        (stages_of(e, slots, |r| r.block(&b.name)), -1)
                    }
                };
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![u.name.len() as i32 + 1]),
                    (gl::TYPE, vec![u.ty.gl_enum() as i32]),
                    (gl::ARRAY_SIZE, vec![u.size as i32]),
                    (gl::OFFSET, vec![u.offset]),
                    (gl::BLOCK_INDEX, vec![u.block_index]),
                    (gl::ARRAY_STRIDE, vec![u.array_stride]),
                    (gl::MATRIX_STRIDE, vec![u.matrix_stride]),
                    (gl::IS_ROW_MAJOR, vec![u.row_major as i32]),
                    (gl::ATOMIC_COUNTER_BUFFER_INDEX, vec![u.atomic_buffer]),
                    (gl::LOCATION, vec![location]),
                ];
                props.extend(referenced_by(stages));
                out.push(Resource {
                    name: u.name.to_string(),
                    props,
                });
            }
        }
        Interface::UniformBlock => {
            for (bi, b) in l.blocks.iter().enumerate() {
                let members: Vec<i32> = l
                    .active_uniforms()
                    .enumerate()
                    .filter(|(_, u)| u.block_index == bi as i32)
                    .map(|(i, _)| i as i32)
                    .collect();
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![b.name.len() as i32 + 1]),
                    (
                        gl::BUFFER_BINDING,
                        vec![block_bindings.get(bi).copied().unwrap_or(b.binding) as i32],
                    ),
                    (gl::BUFFER_DATA_SIZE, vec![b.size as i32]),
                    (gl::NUM_ACTIVE_VARIABLES, vec![members.len() as i32]),
                    (gl::ACTIVE_VARIABLES, members),
                ];
                let slots = b.stage_index.map(|i| i.is_some());
                props.extend(referenced_by(stages_of(e, slots, |r| r.block(&b.name))));
                out.push(Resource {
                    name: b.name.clone(),
                    props,
                });
            }
        }
        Interface::ProgramInput => {
            for a in &l.attributes {
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![a.name.len() as i32 + 1]),
                    (gl::TYPE, vec![a.ty.gl_enum() as i32]),
                    (gl::ARRAY_SIZE, vec![a.array_len.unwrap_or(1) as i32]),
                    (gl::LOCATION, vec![a.location as i32]),
                    (gl::IS_PER_PATCH, vec![0]),
                    (gl::LOCATION_COMPONENT, vec![0]),
                ];
                props.extend(referenced_by(StageMask::from_slots([true, false], false)));
                out.push(Resource {
                    name: array_entry_name(&a.name, a.array_len),
                    props,
                });
            }
        }
        Interface::ProgramOutput => {
            for o in &l.frag_outputs {
                let mut props = vec![
                    (gl::NAME_LENGTH, vec![o.name.len() as i32 + 1]),
                    (gl::TYPE, vec![o.ty.gl_enum() as i32]),
                    (gl::ARRAY_SIZE, vec![o.array_len.unwrap_or(1) as i32]),
                    (gl::LOCATION, vec![o.location as i32]),
                    // 1 for the second colour of dual-source blending.
                    (gl::LOCATION_INDEX, vec![o.index as i32]),
                    (gl::IS_PER_PATCH, vec![0]),
                    (gl::LOCATION_COMPONENT, vec![0]),
                ];
                props.extend(referenced_by(StageMask::from_slots([false, true], false)));
                out.push(Resource {
                    name: array_entry_name(&o.name, o.array_len),
                    props,
                });
            }
        }
        Interface::AtomicCounterBuffer => {
            for (bi, b) in l.atomic_counter_buffers.iter().enumerate() {
                let counters: Vec<i32> = (l.active_uniforms().enumerate())
                    .filter(|(_, u)| u.atomic_buffer == bi as i32)
                    .map(|(i, _)| i as i32)
                    .collect();
                let mut props = vec![
                    (gl::BUFFER_BINDING, vec![b.binding as i32]),
                    (gl::BUFFER_DATA_SIZE, vec![b.size as i32]),
                    (gl::NUM_ACTIVE_VARIABLES, vec![counters.len() as i32]),
                    (gl::ACTIVE_VARIABLES, counters),
                ];
                let slots = b.stage_index.map(|i| i.is_some());
                props.extend(referenced_by(stages_of(e, slots, |r| {
                    r.storage_block(&b.name)
                })));
                out.push(Resource {
                    name: String::new(),
                    props,
                });
            }
        }
        // From the executable's transform feedback layout (`xfb_resources`) and its
        // subroutines (`subroutine::subroutine_resources`).
        Interface::TransformFeedbackVarying
        | Interface::TransformFeedbackBuffer
        | Interface::Subroutine { .. } => {}
    }
    out
}

/// The buffer variables of every storage block, in block order, each with its block's
/// index; the elements of an array of blocks share their members' names, which are listed
/// once, with the first element.
fn buffer_variables(l: &Linked) -> Vec<(usize, &crate::ir::BlockMember)> {
    let mut out: Vec<(usize, &crate::ir::BlockMember)> = Vec::new();
    for (bi, b) in l.storage_blocks.iter().enumerate() {
        for m in &b.members {
            if !out.iter().any(|(_, o)| o.name == m.name) {
                out.push((bi, m));
            }
        }
    }
    out
}

/// The one entry of a variable in an interface (§7.3.1.1): `a[0]` for an array of basic
/// types, the name itself otherwise.
fn array_entry_name(name: &str, array_len: Option<u32>) -> String {
    match array_len {
        Some(_) if !name.ends_with(']') => format!("{name}[0]"),
        _ => name.to_string(),
    }
}

/// Whether `query` names `resource` for glGetProgramResourceIndex (§7.3.1.1): the exact
/// name, or for an array of basic types (reflected as `a[0]`) the name without `[0]`.
fn names_resource(resource: &str, query: &str) -> bool {
    resource == query || resource.strip_suffix("[0]") == Some(query)
}

/// Every property name of GL 4.5 core table 7.2 (INVALID_ENUM for anything else,
/// INVALID_OPERATION for one of these that the interface lacks).
const PROPERTIES: &[u32] = &[
    gl::NAME_LENGTH,
    gl::TYPE,
    gl::ARRAY_SIZE,
    gl::OFFSET,
    gl::BLOCK_INDEX,
    gl::ARRAY_STRIDE,
    gl::MATRIX_STRIDE,
    gl::IS_ROW_MAJOR,
    gl::ATOMIC_COUNTER_BUFFER_INDEX,
    gl::TEXTURE_BUFFER,
    gl::BUFFER_BINDING,
    gl::BUFFER_DATA_SIZE,
    gl::NUM_ACTIVE_VARIABLES,
    gl::ACTIVE_VARIABLES,
    gl::REFERENCED_BY_VERTEX_SHADER,
    gl::REFERENCED_BY_TESS_CONTROL_SHADER,
    gl::REFERENCED_BY_TESS_EVALUATION_SHADER,
    gl::REFERENCED_BY_GEOMETRY_SHADER,
    gl::REFERENCED_BY_FRAGMENT_SHADER,
    gl::REFERENCED_BY_COMPUTE_SHADER,
    gl::NUM_COMPATIBLE_SUBROUTINES,
    gl::COMPATIBLE_SUBROUTINES,
    gl::TOP_LEVEL_ARRAY_SIZE,
    gl::TOP_LEVEL_ARRAY_STRIDE,
    gl::LOCATION,
    gl::LOCATION_INDEX,
    gl::IS_PER_PATCH,
    gl::LOCATION_COMPONENT,
    gl::TRANSFORM_FEEDBACK_BUFFER_INDEX,
    gl::TRANSFORM_FEEDBACK_BUFFER_STRIDE,
];

/// The TRANSFORM_FEEDBACK_VARYING resources (every name of glTransformFeedbackVaryings,
/// gl_SkipComponents* and gl_NextBuffer included, as glGetTransformFeedbackVarying lists
/// them) or the TRANSFORM_FEEDBACK_BUFFER resources (each buffer a varying is written to)
/// of `x` (GL 4.5 core §7.3.1, table 7.2).
fn xfb_resources(
    x: &crate::api::transform_feedback::XfbLayout,
    interface: Interface,
) -> Vec<Resource> {
    // Buffers in binding order, with the varyings (resource indices) each holds.
    let mut buffers: Vec<(u32, Vec<i32>)> = Vec::new();
    for (i, v) in x.varyings.iter().enumerate() {
        if v.ty == gl::NONE {
            continue;
        }
        match buffers.iter_mut().find(|b| b.0 == v.buffer) {
            Some(b) => b.1.push(i as i32),
            None => buffers.push((v.buffer, vec![i as i32])),
        }
    }
    buffers.sort_by_key(|b| b.0);
    if interface == Interface::TransformFeedbackBuffer {
        return buffers
            .into_iter()
            .map(|(binding, vars)| Resource {
                name: String::new(),
                props: vec![
                    (gl::BUFFER_BINDING, vec![binding as i32]),
                    (
                        gl::TRANSFORM_FEEDBACK_BUFFER_STRIDE,
                        vec![x
                            .buffers
                            .get(binding as usize)
                            .map_or(0, |b| b.stride_bytes as i32)],
                    ),
                    (gl::NUM_ACTIVE_VARIABLES, vec![vars.len() as i32]),
                    (gl::ACTIVE_VARIABLES, vars),
                ],
            })
            .collect();
    }
    x.varyings
        .iter()
        .map(|v| {
            let index = buffers
                .iter()
                .position(|b| b.0 == v.buffer)
                .map_or(-1, |i| i as i32);
            Resource {
                name: v.name.clone(),
                props: vec![
                    (gl::NAME_LENGTH, vec![v.name.len() as i32 + 1]),
                    (gl::TYPE, vec![v.ty as i32]),
                    (gl::ARRAY_SIZE, vec![v.size]),
                    (gl::OFFSET, vec![v.offset_bytes as i32]),
                    (gl::TRANSFORM_FEEDBACK_BUFFER_INDEX, vec![index]),
                ],
            }
        })
        .collect()
}

gl_commands! {
    /// glGetProgramInterfaceiv: GL_ACTIVE_RESOURCES, GL_MAX_NAME_LENGTH (with the null),
    /// GL_MAX_NUM_ACTIVE_VARIABLES, GL_MAX_NUM_COMPATIBLE_SUBROUTINES.
    "glGetProgramInterfaceiv"
    fn get_program_interfaceiv(program: u32, interface: u32, pname: u32) -> Vec<i32>
        = try_get_program_interfaceiv;
    /// glGetProgramResourceIndex: GL_INVALID_INDEX for names that are not active.
    "glGetProgramResourceIndex"
    fn get_program_resource_index(program: u32, interface: u32, name: &str) -> u32
        = try_get_program_resource_index else gl::INVALID_INDEX;
    /// glGetProgramResourceName.
    "glGetProgramResourceName"
    fn get_program_resource_name(program: u32, interface: u32, index: u32) -> String
        = try_get_program_resource_name;
    /// glGetProgramResourceiv: the values of `props` in order (nothing on an error).
    "glGetProgramResourceiv"
    fn get_program_resourceiv(program: u32, interface: u32, index: u32, props: &[u32]) -> Vec<i32>
        = try_get_program_resourceiv;
    /// glGetProgramResourceLocation: -1 for names that are not active or have no location.
    "glGetProgramResourceLocation"
    fn get_program_resource_location(program: u32, interface: u32, name: &str) -> i32
        = try_get_program_resource_location else -1;
    /// glGetProgramResourceLocationIndex: the index of an active fragment output (1 for the
    /// second colour of dual-source blending), else -1.
    "glGetProgramResourceLocationIndex"
    fn get_program_resource_location_index(program: u32, interface: u32, name: &str) -> i32
        = try_get_program_resource_location_index else -1;
}

impl Context {
    /// The program's active resources of `interface` (none when it is not linked
    /// successfully, §7.3.1), after checking the program name and the interface.
    fn program_resources(
        &self,
        program: u32,
        interface: u32,
    ) -> GlResult<(Interface, Vec<Resource>)> {
        let p = self.program_obj(program)?;
        let interface = Interface::from_gl(interface)?;
        let list = match p.exe.as_ref().filter(|_| p.link_status) {
            Some(e)
                if matches!(
                    interface,
                    Interface::TransformFeedbackVarying | Interface::TransformFeedbackBuffer
                ) =>
            {
                xfb_resources(&e.xfb, interface)
            }
            Some(e) => match interface {
                Interface::Subroutine { stage, uniforms } => {
                    crate::api::subroutine::subroutine_resources(e.subroutine_info(stage), uniforms)
                        .into_iter()
                        .map(|(name, props)| Resource { name, props })
                        .collect()
                }
                _ => resources(e, interface),
            },
            None => Vec::new(),
        };
        Ok((interface, list))
    }

    pub(crate) fn try_get_program_interfaceiv(
        &mut self,
        program: u32,
        interface: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        // GL 4.5 core §7.3.1.1: "An INVALID_OPERATION error is generated if pname is not
        // supported for programInterface"; an interface that is none of table 7.1
        // supports no pname (piglit's getprograminterfaceiv, as Mesa).
        self.program_obj(program)?;
        if Interface::from_gl(interface).is_err() {
            return Err(GlError::InvalidOperation(
                "the program interface is none of GL 4.5 core table 7.1",
            ));
        }
        let (iface, list) = self.program_resources(program, interface)?;
        Ok(vec![match pname {
            gl::ACTIVE_RESOURCES => list.len() as i32,
            gl::MAX_NAME_LENGTH if iface.named() => list
                .iter()
                .map(|r| r.name.len() as i32 + 1)
                .max()
                .unwrap_or(0),
            gl::MAX_NUM_ACTIVE_VARIABLES if iface.has_variables() => list
                .iter()
                .filter_map(|r| r.props.iter().find(|p| p.0 == gl::NUM_ACTIVE_VARIABLES))
                .map(|p| p.1[0])
                .max()
                .unwrap_or(0),
            gl::MAX_NUM_COMPATIBLE_SUBROUTINES
                if matches!(iface, Interface::Subroutine { uniforms: true, .. }) =>
            {
                list.iter()
                    .filter_map(|r| {
                        r.props
                            .iter()
                            .find(|p| p.0 == gl::NUM_COMPATIBLE_SUBROUTINES)
                    })
                    .map(|p| p.1[0])
                    .max()
                    .unwrap_or(0)
            }
            gl::MAX_NAME_LENGTH
            | gl::MAX_NUM_ACTIVE_VARIABLES
            | gl::MAX_NUM_COMPATIBLE_SUBROUTINES => {
                return Err(GlError::InvalidOperation(
                    "the interface has no such parameter (GL 4.5 core §7.3.1.1)",
                ))
            }
            _ => {
                return Err(GlError::InvalidOperation(
                    "the program interface has no such parameter (GL 4.5 core §7.3.1.1)",
                ))
            }
        }])
    }

    pub(crate) fn try_get_program_resource_index(
        &mut self,
        program: u32,
        interface: u32,
        name: &str,
    ) -> GlResult<u32> {
        let (iface, list) = self.program_resources(program, interface)?;
        if !iface.named() {
            return Err(GlError::BadEnum(
                "program interface without names",
                interface,
            ));
        }
        Ok(list
            .iter()
            .position(|r| names_resource(&r.name, name))
            .map_or(gl::INVALID_INDEX, |i| i as u32))
    }

    pub(crate) fn try_get_program_resource_name(
        &mut self,
        program: u32,
        interface: u32,
        index: u32,
    ) -> GlResult<String> {
        let (iface, list) = self.program_resources(program, interface)?;
        if !iface.named() {
            return Err(GlError::BadEnum(
                "program interface without names",
                interface,
            ));
        }
        list.into_iter()
            .nth(index as usize)
            .map(|r| r.name)
            .ok_or(GlError::InvalidValue("resource index"))
    }

    pub(crate) fn try_get_program_resourceiv(
        &mut self,
        program: u32,
        interface: u32,
        index: u32,
        props: &[u32],
    ) -> GlResult<Vec<i32>> {
        if props.is_empty() {
            return Err(GlError::InvalidValue("propCount is not positive"));
        }
        let (_, list) = self.program_resources(program, interface)?;
        let r = list
            .get(index as usize)
            .ok_or(GlError::InvalidValue("resource index"))?;
        let mut out = Vec::new();
        for &p in props {
            if !PROPERTIES.contains(&p) {
                return Err(GlError::BadEnum("program resource property", p));
            }
            let (_, v) = r
                .props
                .iter()
                .find(|(q, _)| *q == p)
                .ok_or(GlError::InvalidOperation(
                    "the property does not apply to the interface",
                ))?;
            out.extend_from_slice(v);
        }
        Ok(out)
    }

    pub(crate) fn try_get_program_resource_location(
        &mut self,
        program: u32,
        interface: u32,
        name: &str,
    ) -> GlResult<i32> {
        let iface = Interface::from_gl(interface)?;
        let located = matches!(
            iface,
            Interface::Uniform
                | Interface::ProgramInput
                | Interface::ProgramOutput
                | Interface::Subroutine { uniforms: true, .. }
        );
        if !located {
            return Err(GlError::BadEnum(
                "program interface without locations",
                interface,
            ));
        }
        let p = self.program_obj(program)?;
        let e = p
            .exe
            .as_ref()
            .filter(|_| p.link_status)
            .ok_or(GlError::InvalidOperation("program is not linked"))?;
        let l = &e.linked;
        let loc = match iface {
            Interface::Uniform => l.uniform_location(name),
            Interface::ProgramInput => l.attrib_location(name),
            Interface::ProgramOutput => l.frag_data_location(name),
            Interface::Subroutine { stage, .. } => e
                .subroutine_info(stage)
                .and_then(|i| i.uniform_location(name)),
            _ => None,
        };
        Ok(loc.map_or(-1, |l| l as i32))
    }

    pub(crate) fn try_get_program_resource_location_index(
        &mut self,
        program: u32,
        interface: u32,
        name: &str,
    ) -> GlResult<i32> {
        if interface != gl::PROGRAM_OUTPUT {
            return Err(GlError::BadEnum(
                "program interface (only GL_PROGRAM_OUTPUT has location indices)",
                interface,
            ));
        }
        self.try_get_frag_data_index(program, name)
    }
}
