//! Separate shader objects and program pipelines through the Rust `Context` with the real
//! GLSL front end and JIT (GL 4.5 core §7.4, ARB_separate_shader_objects): a vertex
//! program and a fragment program drawing together, one stage swapped, uniforms through
//! glProgramUniform* and glActiveShaderProgram, a geometry stage in a third program,
//! interface matching by location and by name across programs, compute through a pipeline,
//! the object commands' errors and validation with its log. Images are exact (flat
//! colours from uniforms and varyings) and rendered with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 8;
const H: u32 = 8;

/// A vertex program: `pos` to gl_Position, `offset` (a uniform) added to the colour it
/// passes on at location 0 and by name `v_col`.
const VS: &str = "#version 150
#extension GL_ARB_separate_shader_objects : require
in vec2 pos;
uniform vec4 offset;
layout(location = 0) out vec4 v_col;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_col = vec4(0.25, 0.0, 0.0, 1.0) + offset; }";

/// A fragment program reading location 0 under another name, times its `scale` uniform
/// (a uniform of the same name as the vertex program's `offset` would clash in one program;
/// here it is another program's).
const FS_LOC: &str = "#version 150
#extension GL_ARB_separate_shader_objects : require
layout(location = 0) in vec4 color_in;
uniform vec4 offset;
out vec4 c;
void main() { c = color_in * 2.0 + offset; }";

/// A fragment program matching `v_col` by name.
const FS_NAME: &str = "#version 150
in vec4 v_col;
out vec4 c;
void main() { c = v_col.bgra; }";

/// A fragment program that ignores its inputs.
const FS_GREEN: &str = "#version 150
out vec4 c;
void main() { c = vec4(0.0, 1.0, 0.0, 1.0); }";

/// A geometry program that passes triangles through and adds `tint` to the colour.
const GS: &str = "#version 150
#extension GL_ARB_separate_shader_objects : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_col[];
layout(location = 0) out vec4 g_col;
uniform vec4 tint;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        g_col = v_col[i] + tint;
        EmitVertex();
    }
}";

fn separable(c: &mut Context, kind: u32, src: &str) -> u32 {
    let p = c.create_shader_programv(kind, &[src]);
    assert_ne!(p, 0);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    assert_eq!(c.get_programiv(p, gl::PROGRAM_SEPARABLE), 1);
    p
}

/// A context on `threads` workers with a full-screen quad in attribute 0 (`pos`).
fn setup(threads: usize) -> Context {
    let mut c = common::context(W, H, threads);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0);
    c.enable_vertex_attrib_array(0);
    c
}

/// Draws the quad and reads the pixel in the middle.
fn draw(c: &mut Context) -> [u8; 4] {
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    let px = c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE);
    assert!(
        px.chunks(4).all(|p| p == &px[..4]),
        "one colour over the target"
    );
    [px[0], px[1], px[2], px[3]]
}

/// `f` run with 1 and 2 threads: the images it returns agree.
fn both_threads<T: PartialEq + std::fmt::Debug>(f: impl Fn(usize) -> T) -> T {
    let one = f(1);
    assert_eq!(one, f(2), "1 and 2 threads agree");
    one
}

#[test]
fn vertex_and_fragment_programs_draw_together_and_swap() {
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
        let fs = separable(&mut c, gl::FRAGMENT_SHADER, FS_LOC);
        let pipe = c.gen_program_pipelines(1)[0];
        assert!(
            !c.is_program_pipeline(pipe),
            "no object before the first bind"
        );
        c.bind_program_pipeline(pipe);
        assert!(c.is_program_pipeline(pipe));
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        assert_eq!(c.get_program_pipelineiv(pipe, gl::VERTEX_SHADER), vs as i32);
        assert_eq!(
            c.get_program_pipelineiv(pipe, gl::FRAGMENT_SHADER),
            fs as i32
        );
        assert_eq!(c.get_program_pipelineiv(pipe, gl::GEOMETRY_SHADER), 0);
        assert_eq!(
            c.get_integerv(gl::PROGRAM_PIPELINE_BINDING),
            vec![pipe as i32]
        );
        // Matched by location: (0.25, 0, 0, 1) * 2 + the fragment program's offset (0).
        let a = draw(&mut c);
        // Each program's `offset` is its own.
        let loc = c.get_uniform_location(vs, "offset");
        c.program_uniform_4f(vs, loc, 0.0, 0.25, 0.0, 0.0);
        let floc = c.get_uniform_location(fs, "offset");
        c.program_uniform_4f(fs, floc, 0.0, 0.0, 0.5, 0.0);
        let b = draw(&mut c);
        // The fragment stage swapped for a program matching by name.
        let fs2 = separable(&mut c, gl::FRAGMENT_SHADER, FS_NAME);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs2);
        let d = draw(&mut c);
        // glUseProgram wins over the bound pipeline.
        let whole = common::program(
            &mut c,
            "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }",
            FS_GREEN,
        );
        c.use_program(whole);
        let e = draw(&mut c);
        c.use_program(0);
        let f = draw(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        [a, b, d, e, f]
    });
    assert_eq!(got[0], [128, 0, 0, 255]);
    assert_eq!(got[1], [128, 128, 128, 255]);
    // (0.25, 0.25, 0, 1).bgra
    assert_eq!(got[2], [0, 64, 64, 255]);
    assert_eq!(got[3], [0, 255, 0, 255]);
    assert_eq!(got[4], got[2], "the pipeline again after glUseProgram(0)");
}

#[test]
fn uniforms_go_to_the_active_program_when_none_is_current() {
    let mut c = setup(1);
    let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
    let fs = separable(&mut c, gl::FRAGMENT_SHADER, FS_LOC);
    let pipe = c.create_program_pipelines(1)[0];
    assert!(c.is_program_pipeline(pipe), "glCreate* makes the object");
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, vs);
    c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
    c.bind_program_pipeline(pipe);
    // No active program: glUniform* has no target.
    c.uniform_4f(0, 1.0, 1.0, 1.0, 1.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.active_shader_program(pipe, fs);
    assert_eq!(
        c.get_program_pipelineiv(pipe, gl::ACTIVE_PROGRAM),
        fs as i32
    );
    let floc = c.get_uniform_location(fs, "offset");
    c.uniform_4f(floc, 0.0, 0.0, 0.0, -1.0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniformfv(fs, floc), vec![0.0, 0.0, 0.0, -1.0]);
    let vloc = c.get_uniform_location(vs, "offset");
    assert_eq!(c.get_uniformfv(vs, vloc), vec![0.0; 4]);
    // Alpha 1 * 2 - 1.
    assert_eq!(draw(&mut c), [128, 0, 0, 255]);
    c.active_shader_program(pipe, vs);
    c.uniform_4f(vloc, 0.25, 0.0, 0.0, 0.0);
    // (0.5, 0, 0, 1) * 2 + (0, 0, 0, -1).
    assert_eq!(draw(&mut c), [255, 0, 0, 255]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn a_geometry_stage_from_a_third_program() {
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
        let gs = separable(&mut c, gl::GEOMETRY_SHADER, GS);
        let fs = separable(&mut c, gl::FRAGMENT_SHADER, FS_LOC);
        let pipe = c.gen_program_pipelines(1)[0];
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::GEOMETRY_SHADER_BIT, gs);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        c.bind_program_pipeline(pipe);
        let tint = c.get_uniform_location(gs, "tint");
        c.program_uniform_4f(gs, tint, 0.0, 0.25, 0.0, 0.0);
        let a = draw(&mut c);
        // The geometry stage removed: the vertex stage feeds the fragment stage again.
        c.use_program_stages(pipe, gl::GEOMETRY_SHADER_BIT, 0);
        let b = draw(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        [a, b]
    });
    // ((0.25, 0, 0, 1) + (0, 0.25, 0, 0)) * 2.
    assert_eq!(got[0], [128, 128, 0, 255]);
    assert_eq!(got[1], [128, 0, 0, 255]);
}

#[test]
fn compute_through_a_pipeline() {
    let got = both_threads(|threads| {
        let mut c = common::context(4, 4, threads);
        let cs = separable(
            &mut c,
            gl::COMPUTE_SHADER,
            "#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
uniform uint add;
void main() { v[gl_GlobalInvocationID.x] += add + gl_GlobalInvocationID.x; }",
        );
        let b = c.gen_buffers(1)[0];
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
        c.buffer_data(
            gl::SHADER_STORAGE_BUFFER,
            32,
            Some(&[0u8; 32][..]),
            gl::DYNAMIC_DRAW,
        );
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b);
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        // An empty pipeline has no compute stage.
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.use_program_stages(pipe, gl::COMPUTE_SHADER_BIT, cs);
        assert_eq!(
            c.get_program_pipelineiv(pipe, gl::COMPUTE_SHADER),
            cs as i32
        );
        let add = c.get_uniform_location(cs, "add");
        c.program_uniform_1ui(cs, add, 10);
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.memory_barrier(gl::SHADER_STORAGE_BARRIER_BIT);
        c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 32)
    });
    let words: Vec<u32> = got
        .chunks(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect();
    assert_eq!(words, (10..18).collect::<Vec<u32>>());
}

#[test]
fn object_errors() {
    let mut c = setup(1);
    let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
    // Not a pipeline name: INVALID_OPERATION for every command that takes one.
    c.bind_program_pipeline(12345);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.use_program_stages(12345, gl::VERTEX_SHADER_BIT, vs);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_program_pipelineiv(12345, gl::VALIDATE_STATUS);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.validate_program_pipeline(12345);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.active_shader_program(12345, vs);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.gen_program_pipelines(-1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let pipe = c.gen_program_pipelines(1)[0];
    // Stage bits that are not stage bits.
    c.use_program_stages(pipe, 0x40, vs);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // A program that is not separable, one that is not linked, a shader, a non-name.
    let whole = common::program(
        &mut c,
        "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }",
        FS_GREEN,
    );
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, whole);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let unlinked = c.create_program();
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, unlinked);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let shader = c.create_shader(gl::VERTEX_SHADER);
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, shader);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, 54321);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_program_pipelineiv(pipe, gl::LINK_STATUS);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // glCreateShaderProgramv: a bad type gives 0; a shader that does not compile gives a
    // program that is not linked, with the compile log.
    assert_eq!(
        c.create_shader_programv(gl::TEXTURE_2D, &["void main() {}"]),
        0
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    let bad = c.create_shader_programv(
        gl::FRAGMENT_SHADER,
        &["#version 150\nvoid main() { x = 1; }"],
    );
    assert_ne!(bad, 0);
    assert_eq!(c.get_programiv(bad, gl::LINK_STATUS), 0);
    assert!(
        c.get_program_info_log(bad).contains("error"),
        "{}",
        c.get_program_info_log(bad)
    );
    assert_eq!(
        c.get_attached_shaders(bad),
        Vec::<u32>::new(),
        "the shader is detached"
    );
    // Deleting the bound pipeline unbinds it.
    c.bind_program_pipeline(pipe);
    c.delete_program_pipelines(&[pipe, 0, 999]);
    assert_eq!(c.get_integerv(gl::PROGRAM_PIPELINE_BINDING), vec![0]);
    assert!(!c.is_program_pipeline(pipe));
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn validation_and_its_log() {
    let mut c = setup(1);
    let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
    let gs = separable(&mut c, gl::GEOMETRY_SHADER, GS);
    let fs = separable(&mut c, gl::FRAGMENT_SHADER, FS_LOC);
    let pipe = c.gen_program_pipelines(1)[0];
    c.bind_program_pipeline(pipe);
    // Empty: invalid, and a draw with it is INVALID_OPERATION.
    c.validate_program_pipeline(pipe);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 0);
    let len = c.get_program_pipelineiv(pipe, gl::INFO_LOG_LENGTH);
    let log = c.get_program_pipeline_info_log(pipe);
    assert_eq!(len as usize, log.len() + 1);
    assert!(log.contains("no program"), "{log}");
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A geometry stage without a vertex stage.
    c.use_program_stages(pipe, gl::GEOMETRY_SHADER_BIT, gs);
    c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
    c.validate_program_pipeline(pipe);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 0);
    assert!(c
        .get_program_pipeline_info_log(pipe)
        .contains("no vertex stage"));
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
    c.validate_program_pipeline(pipe);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 1);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::INFO_LOG_LENGTH), 0);
    // One program in two stages with another between them.
    let vf = c.create_program();
    c.program_parameteri(vf, gl::PROGRAM_SEPARABLE, 1);
    for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS_LOC)] {
        let s = c.create_shader(kind);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        c.attach_shader(vf, s);
    }
    c.link_program(vf);
    assert_eq!(
        c.get_programiv(vf, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(vf)
    );
    c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT | gl::FRAGMENT_SHADER_BIT, vf);
    c.validate_program_pipeline(pipe);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 0);
    assert!(c.get_program_pipeline_info_log(pipe).contains("between"));
    // A program active in only some of its stages.
    c.use_program_stages(pipe, gl::GEOMETRY_SHADER_BIT, 0);
    c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
    c.validate_program_pipeline(pipe);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 0);
    assert!(c.get_program_pipeline_info_log(pipe).contains("not all"));
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Both stages of the program: it draws as the program itself does.
    c.use_program_stages(pipe, gl::ALL_SHADER_BITS, vf);
    assert_eq!(c.get_program_pipelineiv(pipe, gl::GEOMETRY_SHADER), 0);
    assert_eq!(draw(&mut c), [128, 0, 0, 255]);
    // Relinked without PROGRAM_SEPARABLE: no longer valid.
    c.program_parameteri(vf, gl::PROGRAM_SEPARABLE, 0);
    c.link_program(vf);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn a_relink_of_a_stage_program_is_drawn() {
    let mut c = setup(1);
    let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
    let fs = c.create_program();
    c.program_parameteri(fs, gl::PROGRAM_SEPARABLE, 1);
    let s = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(s, &[FS_GREEN]);
    c.compile_shader(s);
    c.attach_shader(fs, s);
    c.link_program(fs);
    let pipe = c.gen_program_pipelines(1)[0];
    c.bind_program_pipeline(pipe);
    c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
    c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
    assert_eq!(draw(&mut c), [0, 255, 0, 255]);
    // Relinked with another source: the pipeline draws the new code.
    c.shader_source(s, &[FS_NAME]);
    c.compile_shader(s);
    c.link_program(fs);
    assert_eq!(c.get_programiv(fs, gl::LINK_STATUS), 1);
    assert_eq!(draw(&mut c), [0, 0, 64, 255]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn interface_blocks_match_by_their_locations_across_programs() {
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let vs = separable(
            &mut c,
            gl::VERTEX_SHADER,
            "#version 150
#extension GL_ARB_separate_shader_objects : require
in vec2 pos;
layout(location = 0) out First { vec4 a; vec4 b; } first;
layout(location = 2) out Second { vec4 a; } second;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    first.a = vec4(1.0, 0.0, 0.0, 1.0);
    first.b = vec4(0.0, 1.0, 0.0, 1.0);
    second.a = vec4(0.0, 0.0, 1.0, 1.0);
}",
        );
        // The names are swapped: only the locations say which output each input reads
        // (`First.b` is location 1, after `First.a`).
        let fs = separable(
            &mut c,
            gl::FRAGMENT_SHADER,
            "#version 150
#extension GL_ARB_separate_shader_objects : require
layout(location = 2) in First { vec4 a; } first;
layout(location = 0) in Second { vec4 a; vec4 b; } second;
out vec4 c;
void main() { c = first.a + second.b * 0.5; }",
        );
        let pipe = c.gen_program_pipelines(1)[0];
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        c.bind_program_pipeline(pipe);
        let px = draw(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        px
    });
    // Second.a (blue) + First.b (green) / 2.
    assert_eq!(got, [0, 128, 255, 255]);
}
