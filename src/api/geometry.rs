//! Geometry programs at the API (GL 3.2 core §11.3): linking a vertex + geometry +
//! fragment program into an executable, the draw-time checks (the draw mode must match the
//! shader's input primitive, §11.3.1; the work a draw may emit is bounded), the program
//! queries GEOMETRY_VERTICES_OUT / _INPUT_TYPE / _OUTPUT_TYPE / _SHADER_INVOCATIONS and
//! the GL_MAX_GEOMETRY_* limits (llvmpipe's values).

use std::sync::Arc;

use crate::api::context::BackEnd;
use crate::api::error::{GlError, GlResult};
use crate::api::program::{Executable, Program};
use crate::gl::enums as gl;
use crate::ir::geometry::{self as geo, InputPrimitive, OutputPrimitive};
use crate::ir::link::{self, LinkOptions};
use crate::ir::{BuiltinOutput, Module};
use crate::raster::{GeometryCode, ProgramCode, Topology};

/// Vertices all the geometry invocations of one draw may emit (input primitives ×
/// instances × invocations × max_vertices): past it the draw records GL_OUT_OF_MEMORY
/// instead of running (2^28: 256 Mi vertices, hours of work).
pub const MAX_DRAW_OUTPUT_VERTICES: u64 = 1 << 28;

/// glLinkProgram of a program with a geometry shader: `ir::geometry::link_geometry`,
/// then the three stages through the back end.
pub(crate) fn link_modules(
    vs: &Module,
    gs: &Module,
    fs: &Module,
    opts: &LinkOptions,
    back_end: &BackEnd,
) -> Result<Executable, String> {
    let l = geo::link_geometry(vs, gs, fs, opts).map_err(|errs| {
        errs.iter()
            .map(|e| format!("error: {e}\n"))
            .collect::<String>()
    })?;
    let vs_code = back_end(vs).map_err(|e| format!("error: vertex shader: {e}\n"))?;
    let gs_code = back_end(&l.gs).map_err(|e| format!("error: geometry shader: {e}\n"))?;
    let fs_code = back_end(fs).map_err(|e| format!("error: fragment shader: {e}\n"))?;
    executable_of(vs, fs, l, [vs_code, gs_code, fs_code])
}

/// The executable of a vertex + geometry + fragment link from the stages' code
/// (`link_modules`; program pipelines pass code their programs compiled, `pipeline.rs`).
pub(crate) fn executable_of(
    vs: &Module,
    fs: &Module,
    l: geo::GeometryLink,
    [vs_code, gs_code, fs_code]: [Arc<dyn crate::jit::ShaderCode>; 3],
) -> Result<Executable, String> {
    let linked = l.linked;
    let g = &l.gs.geometry;
    let out = &l.gs.outputs;
    let builtin = |b: BuiltinOutput| out.iter().find(|o| o.builtin == Some(b));
    let (Some(input), Some(output), Some(max_vertices), Some(vertex_words)) =
        (g.input, g.output, g.max_vertices, g.vertex_words)
    else {
        return Err("error: geometry shader layout incomplete\n".into());
    };
    let geometry = GeometryCode {
        code: gs_code,
        input,
        output,
        max_vertices,
        invocations: g.invocation_count(),
        vertex_words,
        inputs: l.inputs,
        layer_slot: builtin(BuiltinOutput::Layer).map(|o| o.slot),
        viewport_slot: builtin(BuiltinOutput::ViewportIndex).map(|o| o.slot),
    };
    let code = ProgramCode {
        vs_output_words: vs_code.output_words().max(linked.vs_output_words),
        fs_input_words: fs_code.input_words().max(linked.fs_input_words),
        fs_output_words: fs_code.output_words().max(linked.fs_output_words),
        vs: vs_code,
        fs: fs_code,
        position_slot: linked.position_slot,
        point_size_slot: builtin(BuiltinOutput::PointSize).map(|o| o.slot),
        clip_distances: link::clip_distance_output(&l.gs),
        cull_distances: link::cull_distance_output(&l.gs),
        varyings: linked.varyings.clone(),
        color_slots: linked.color_slots.clone(),
        src1_slot: linked.src1_slot,
        frag_depth_slot: linked.frag_depth_slot,
        // A fragment shader with side effects tests late (as `Context::link_modules`).
        uses_discard: linked.uses_discard || fs.writes_storage(),
        early_fragment_tests: linked.early_fragment_tests,
        frag_coord_origin_upper_left: fs.frag_coord_origin_upper_left,
        frag_coord_pixel_center_integer: fs.frag_coord_pixel_center_integer,
        gs: Some(Arc::new(geometry)),
        // What the geometry shader emits is rasterized: its gl_Layer counts.
        vs_select_slots: [None; 2],
        tess: None,
    };
    let mut exe = Executable::new(linked, Arc::new(code));
    exe.writes_storage = fs.writes_storage() || vs.writes_storage() || l.gs.writes_storage();
    Ok(exe)
}

/// Whether draw mode `t` feeds input primitive `p` (GL 4.5 core §11.3.1 table 11.1).
pub fn mode_matches(p: InputPrimitive, t: Topology) -> bool {
    use Topology as T;
    match p {
        InputPrimitive::Points => t == T::Points,
        InputPrimitive::Lines => matches!(t, T::Lines | T::LineStrip | T::LineLoop),
        InputPrimitive::LinesAdjacency => {
            matches!(t, T::LinesAdjacency | T::LineStripAdjacency)
        }
        InputPrimitive::Triangles => {
            matches!(t, T::Triangles | T::TriangleStrip | T::TriangleFan)
        }
        InputPrimitive::TrianglesAdjacency => {
            matches!(t, T::TrianglesAdjacency | T::TriangleStripAdjacency)
        }
    }
}

/// The draw-time checks of a program with a geometry shader: INVALID_OPERATION when the
/// mode does not match the input primitive (GL 4.5 core §11.3.1), OUT_OF_MEMORY when the
/// vertices the draw may emit pass `MAX_DRAW_OUTPUT_VERTICES` (checked arithmetic: no
/// product overflows). `count` and `instances` are the draw's (not yet checked for < 0).
pub(crate) fn check_draw(
    code: &ProgramCode,
    mode: Topology,
    count: i32,
    instances: i32,
) -> GlResult<()> {
    let Some(g) = &code.gs else {
        return Ok(());
    };
    // After tessellation the geometry shader takes what the tessellator makes.
    let mode = code
        .tess
        .as_deref()
        .map_or(mode, crate::raster::tess::output_topology);
    if !mode_matches(g.input, mode) {
        return Err(GlError::InvalidOperation(
            "the draw mode does not match the geometry shader's input primitive",
        ));
    }
    let work = (count.max(0) as u64)
        .checked_mul(instances.max(0) as u64)
        .and_then(|n| n.checked_mul(g.invocations as u64))
        .and_then(|n| n.checked_mul(g.max_vertices as u64));
    match work {
        Some(n) if n <= MAX_DRAW_OUTPUT_VERTICES => Ok(()),
        _ => Err(GlError::OutOfMemory(
            "the geometry shader may emit too many vertices for one draw",
        )),
    }
}

/// glGetProgramiv's GEOMETRY_VERTICES_OUT, GEOMETRY_INPUT_TYPE, GEOMETRY_OUTPUT_TYPE and
/// GEOMETRY_SHADER_INVOCATIONS (GL 4.5 core §7.13): INVALID_OPERATION unless the program
/// is linked with a geometry shader. `None` for other names.
pub(crate) fn program_parameter(p: &Program, pname: u32) -> Option<GlResult<i32>> {
    if !matches!(
        pname,
        gl::GEOMETRY_VERTICES_OUT
            | gl::GEOMETRY_INPUT_TYPE
            | gl::GEOMETRY_OUTPUT_TYPE
            | gl::GEOMETRY_SHADER_INVOCATIONS
    ) {
        return None;
    }
    let g = p
        .exe
        .as_ref()
        .filter(|_| p.link_status)
        .and_then(|e| e.code.gs.clone());
    let Some(g) = g else {
        return Some(Err(GlError::InvalidOperation(
            "the program is not linked with a geometry shader",
        )));
    };
    Some(Ok(match pname {
        gl::GEOMETRY_VERTICES_OUT => g.max_vertices as i32,
        gl::GEOMETRY_INPUT_TYPE => {
            (match g.input {
                InputPrimitive::Points => gl::POINTS,
                InputPrimitive::Lines => gl::LINES,
                InputPrimitive::LinesAdjacency => gl::LINES_ADJACENCY,
                InputPrimitive::Triangles => gl::TRIANGLES,
                InputPrimitive::TrianglesAdjacency => gl::TRIANGLES_ADJACENCY,
            }) as i32
        }
        gl::GEOMETRY_OUTPUT_TYPE => {
            (match g.output {
                OutputPrimitive::Points => gl::POINTS,
                OutputPrimitive::LineStrip => gl::LINE_STRIP,
                OutputPrimitive::TriangleStrip => gl::TRIANGLE_STRIP,
            }) as i32
        }
        _ => g.invocations as i32,
    }))
}

/// The GL_MAX_GEOMETRY_* limits glGetIntegerv answers (GL 4.5 core table 23.60), as
/// llvmpipe reports them; `None` for other names.
pub(crate) fn limit(pname: u32) -> Option<i32> {
    Some(match pname {
        gl::MAX_GEOMETRY_OUTPUT_VERTICES => geo::MAX_OUTPUT_VERTICES as i32,
        gl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS => geo::MAX_TOTAL_OUTPUT_COMPONENTS as i32,
        gl::MAX_GEOMETRY_OUTPUT_COMPONENTS => geo::MAX_OUTPUT_COMPONENTS as i32,
        gl::MAX_GEOMETRY_INPUT_COMPONENTS => geo::MAX_INPUT_COMPONENTS as i32,
        gl::MAX_GEOMETRY_SHADER_INVOCATIONS => geo::MAX_INVOCATIONS as i32,
        gl::MAX_GEOMETRY_UNIFORM_COMPONENTS => link::MAX_UNIFORM_COMPONENTS as i32,
        gl::MAX_GEOMETRY_UNIFORM_BLOCKS => link::MAX_STAGE_UNIFORM_BLOCKS as i32,
        // Default-block components plus every block at its largest (GL 4.5 core §7.6.2).
        gl::MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS => {
            use crate::api::context::limits as l;
            l::MAX_UNIFORM_COMPONENTS + l::MAX_STAGE_UNIFORM_BLOCKS * l::MAX_UNIFORM_BLOCK_SIZE / 4
        }
        gl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS => {
            crate::api::context::limits::MAX_TEXTURE_IMAGE_UNITS
        }
        gl::MAX_VERTEX_STREAMS => geo::MAX_VERTEX_STREAMS as i32,
        _ => return None,
    })
}
