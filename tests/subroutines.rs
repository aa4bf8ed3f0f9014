//! Shader subroutines through the Rust `Context` with the real GLSL front end and JIT
//! (GL 4.5 core §7.10, §7.3.1, GLSL 4.60 §6.1.2): draws that select different subroutines
//! per draw in the vertex, geometry and fragment stages, arrays of subroutine uniforms
//! indexed by a uniform, compute dispatches, separable programs in a pipeline (each stage's
//! selection from its own program), the reset of the selection by glUseProgram,
//! glUseProgramStages, glBindProgramPipeline and a relink, the queries and program
//! interfaces, and every error of the commands. Images are exact (flat colours) and drawn
//! with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 8;
const H: u32 = 8;

/// A vertex shader that places the quad with one subroutine (`place`: as given, or
/// shrunk to the left half) and passes on a colour chosen by another (`tint`).
const VS: &str = "#version 400
in vec2 pos;
out vec4 v_col;
subroutine vec2 Place(vec2 p);
subroutine vec4 Tint();
subroutine uniform Place place;
subroutine uniform Tint tint;
subroutine(Place) vec2 whole(vec2 p) { return p; }
subroutine(Place) vec2 left_half(vec2 p) { return vec2(p.x * 0.5 - 0.5, p.y); }
subroutine(Tint) vec4 no_tint() { return vec4(0.0); }
subroutine(Tint) vec4 blue_tint() { return vec4(0.0, 0.0, 1.0, 0.0); }
void main() { gl_Position = vec4(place(pos), 0.0, 1.0); v_col = tint(); }";

/// A fragment shader whose colour is the vertex colour plus a subroutine's, with a second
/// subroutine uniform of the same type (`extra`) and an out parameter.
const FS: &str = "#version 400
in vec4 v_col;
out vec4 c;
subroutine void Colour(out vec4 c, float k);
subroutine uniform Colour colour;
subroutine uniform Colour extra;
subroutine(Colour) void red(out vec4 c, float k) { c = vec4(k, 0.0, 0.0, 1.0); }
subroutine(Colour) void green(out vec4 c, float k) { c = vec4(0.0, k, 0.0, 1.0); }
subroutine(Colour) void nothing(out vec4 c, float k) { c = vec4(0.0); }
void main() { vec4 a; vec4 b; colour(a, 1.0); extra(b, 0.5); c = v_col + a + b; }";

fn shader(c: &mut Context, kind: u32, src: &str) -> u32 {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

/// A program of these shaders, linked (panics with the log otherwise).
fn program(c: &mut Context, shaders: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let s = shader(c, kind, src);
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
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

/// Draws the quad over a black target; returns the pixels of the left and right halves
/// (each half must be one colour).
fn draw(c: &mut Context) -> [[u8; 4]; 2] {
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    let px = c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE);
    let at = |x: u32, y: u32| {
        let i = ((y * W + x) * 4) as usize;
        [px[i], px[i + 1], px[i + 2], px[i + 3]]
    };
    let halves = [at(0, 0), at(W - 1, 0)];
    for y in 0..H {
        for x in 0..W {
            assert_eq!(at(x, y), halves[(x >= W / 2) as usize], "pixel ({x}, {y})");
        }
    }
    halves
}

/// `f` run with 1 and 2 threads: the results agree.
fn both_threads<T: PartialEq + std::fmt::Debug>(f: impl Fn(usize) -> T) -> T {
    let one = f(1);
    assert_eq!(one, f(2), "1 and 2 threads agree");
    one
}

fn index(c: &mut Context, p: u32, stage: u32, name: &str) -> u32 {
    let i = c.get_subroutine_index(p, stage, name);
    assert_ne!(i, gl::INVALID_INDEX, "{name}");
    i
}

/// The selection of every location of `stage` by subroutine uniform name.
fn select(c: &mut Context, p: u32, stage: u32, picks: &[(&str, &str)]) {
    let n = c.get_program_stageiv(p, stage, gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS);
    let mut v = vec![0u32; n as usize];
    for (uniform, function) in picks {
        let loc = c.get_subroutine_uniform_location(p, stage, uniform);
        assert!(loc >= 0, "{uniform}");
        v[loc as usize] = index(c, p, stage, function);
    }
    c.uniform_subroutinesuiv(stage, &v);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn each_draw_runs_the_subroutines_selected_for_it_in_both_stages() {
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let p = program(
            &mut c,
            &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
        );
        c.use_program(p);
        // The defaults: each uniform's lowest compatible index (whole, no_tint, red, red).
        let defaults = draw(&mut c);
        select(
            &mut c,
            p,
            gl::FRAGMENT_SHADER,
            &[("colour", "green"), ("extra", "nothing")],
        );
        let green = draw(&mut c);
        select(
            &mut c,
            p,
            gl::VERTEX_SHADER,
            &[("place", "left_half"), ("tint", "blue_tint")],
        );
        let left_blue = draw(&mut c);
        // The fragment stage kept its selection while the vertex stage's changed.
        select(
            &mut c,
            p,
            gl::FRAGMENT_SHADER,
            &[("colour", "nothing"), ("extra", "red")],
        );
        let half_red = draw(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        [defaults, green, left_blue, half_red]
    });
    // red(1.0) + red(0.5), clamped.
    assert_eq!(got[0], [[255, 0, 0, 255]; 2]);
    assert_eq!(got[1], [[0, 255, 0, 255]; 2]);
    assert_eq!(got[2], [[0, 255, 255, 255], [0, 0, 0, 0]]);
    assert_eq!(got[3], [[128, 0, 255, 255], [0, 0, 0, 0]]);
}

#[test]
fn arrays_of_subroutine_uniforms_take_a_uniform_index() {
    let fs = "#version 400
out vec4 c;
uniform int pick;
subroutine float Chan();
subroutine uniform Chan chans[3];
subroutine(Chan) float zero() { return 0.0; }
subroutine(Chan) float half_() { return 0.5; }
subroutine(Chan) float one() { return 1.0; }
void main() { c = vec4(chans[pick](), chans[(pick + 1) % 3](), chans[2](), 1.0); }";
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let vs = "#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }";
        let p = common::program(&mut c, vs, fs);
        c.use_program(p);
        assert_eq!(
            c.get_program_stageiv(p, gl::FRAGMENT_SHADER, gl::ACTIVE_SUBROUTINE_UNIFORMS),
            1
        );
        assert_eq!(
            c.get_program_stageiv(
                p,
                gl::FRAGMENT_SHADER,
                gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS
            ),
            3
        );
        assert_eq!(
            c.get_subroutine_uniform_location(p, gl::FRAGMENT_SHADER, "chans[2]"),
            2
        );
        assert_eq!(
            c.get_subroutine_uniform_location(p, gl::FRAGMENT_SHADER, "chans[3]"),
            -1
        );
        let (z, h, o) = (
            index(&mut c, p, gl::FRAGMENT_SHADER, "zero"),
            index(&mut c, p, gl::FRAGMENT_SHADER, "half_"),
            index(&mut c, p, gl::FRAGMENT_SHADER, "one"),
        );
        c.uniform_subroutinesuiv(gl::FRAGMENT_SHADER, &[o, h, z]);
        let pick = c.get_uniform_location(p, "pick");
        let mut out = Vec::new();
        for k in 0..3 {
            c.uniform_1i(pick, k);
            out.push(draw(&mut c)[0]);
        }
        assert_eq!(c.get_uniform_subroutineuiv(gl::FRAGMENT_SHADER, 1), h);
        out
    });
    // chans = [one, half, zero]: (chans[k], chans[k + 1], chans[2]).
    assert_eq!(got[0], [255, 128, 0, 255]);
    assert_eq!(got[1], [128, 0, 0, 255]);
    assert_eq!(got[2], [0, 255, 0, 255]);
}

#[test]
fn a_geometry_stage_has_its_own_selection_beside_the_vertex_stage_s() {
    // The geometry shader's subroutine uniform has the vertex shader's uniform's name: the
    // two are different uniforms of different stages.
    let vs = "#version 400
in vec2 pos;
out vec4 v_col;
subroutine vec4 Pick();
subroutine uniform Pick pick;
subroutine(Pick) vec4 red() { return vec4(1.0, 0.0, 0.0, 1.0); }
subroutine(Pick) vec4 dark() { return vec4(0.0, 0.0, 0.0, 1.0); }
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_col = pick(); }";
    let gs = "#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
subroutine vec4 Add(vec4 c);
subroutine uniform Add pick;
subroutine(Add) vec4 plus_green(vec4 c) { return c + vec4(0.0, 1.0, 0.0, 0.0); }
subroutine(Add) vec4 keep(vec4 c) { return c; }
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        g_col = pick(v_col[i]);
        EmitVertex();
    }
}";
    let fs = "#version 400\nin vec4 g_col;\nout vec4 c;\nvoid main() { c = g_col; }";
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let p = program(
            &mut c,
            &[
                (gl::VERTEX_SHADER, vs),
                (gl::GEOMETRY_SHADER, gs),
                (gl::FRAGMENT_SHADER, fs),
            ],
        );
        c.use_program(p);
        let a = draw(&mut c);
        select(&mut c, p, gl::GEOMETRY_SHADER, &[("pick", "keep")]);
        let b = draw(&mut c);
        select(&mut c, p, gl::VERTEX_SHADER, &[("pick", "dark")]);
        select(&mut c, p, gl::GEOMETRY_SHADER, &[("pick", "plus_green")]);
        let d = draw(&mut c);
        [a[0], b[0], d[0]]
    });
    assert_eq!(
        got,
        [[255, 255, 0, 255], [255, 0, 0, 255], [0, 255, 0, 255]]
    );
}

#[test]
fn compute_dispatches_run_the_selected_subroutine() {
    let cs = "#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
subroutine uint Op(uint x);
subroutine uniform Op op;
subroutine(Op) uint twice(uint x) { return x * 2u; }
subroutine(Op) uint plus_ten(uint x) { return x + 10u; }
void main() { v[gl_GlobalInvocationID.x] = op(v[gl_GlobalInvocationID.x]); }";
    let got = both_threads(|threads| {
        let mut c = common::context(4, 4, threads);
        let p = program(&mut c, &[(gl::COMPUTE_SHADER, cs)]);
        c.use_program(p);
        let b = c.gen_buffers(1)[0];
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
        let bytes: Vec<u8> = (1u32..=8).flat_map(|w| w.to_le_bytes()).collect();
        c.buffer_data(
            gl::SHADER_STORAGE_BUFFER,
            bytes.len() as isize,
            Some(&bytes),
            gl::DYNAMIC_DRAW,
        );
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b);
        // Default (twice) over the first group, plus_ten over both.
        c.dispatch_compute(1, 1, 1);
        let ten = index(&mut c, p, gl::COMPUTE_SHADER, "plus_ten");
        c.uniform_subroutinesuiv(gl::COMPUTE_SHADER, &[ten]);
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 32)
            .chunks(4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect::<Vec<u32>>()
    });
    assert_eq!(got, [12, 14, 16, 18, 15, 16, 17, 18]);
}

/// A separable program of one shader.
fn separable(c: &mut Context, kind: u32, src: &str) -> u32 {
    let p = c.create_shader_programv(kind, &[src]);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

#[test]
fn pipelines_take_each_stage_s_selection_for_its_program_and_reset_it() {
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let vs = separable(&mut c, gl::VERTEX_SHADER, VS);
        let fs = separable(&mut c, gl::FRAGMENT_SHADER, FS);
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        let defaults = draw(&mut c);
        select(
            &mut c,
            vs,
            gl::VERTEX_SHADER,
            &[("place", "left_half"), ("tint", "no_tint")],
        );
        select(
            &mut c,
            fs,
            gl::FRAGMENT_SHADER,
            &[("colour", "green"), ("extra", "nothing")],
        );
        let selected = draw(&mut c);
        // The program of the vertex stage has no fragment stage: a geometry stage has no
        // program, so no selection there.
        c.uniform_subroutinesuiv(gl::GEOMETRY_SHADER, &[]);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        // glUseProgramStages resets every stage.
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        assert_eq!(
            c.get_uniform_subroutineuiv(gl::VERTEX_SHADER, 0),
            index(&mut c, vs, gl::VERTEX_SHADER, "whole")
        );
        let reset = draw(&mut c);
        select(
            &mut c,
            fs,
            gl::FRAGMENT_SHADER,
            &[("colour", "green"), ("extra", "nothing")],
        );
        c.bind_program_pipeline(pipe);
        let rebound = draw(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        [defaults, selected, reset, rebound]
    });
    assert_eq!(got[0], [[255, 0, 0, 255]; 2]);
    assert_eq!(got[1], [[0, 255, 0, 255], [0, 0, 0, 0]]);
    assert_eq!(got[2], got[0], "glUseProgramStages reset the selection");
    assert_eq!(got[3], got[0], "glBindProgramPipeline reset the selection");
}

#[test]
fn use_program_and_relinks_reset_the_selection() {
    let mut c = setup(1);
    let p = program(
        &mut c,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
    );
    c.use_program(p);
    let green = index(&mut c, p, gl::FRAGMENT_SHADER, "green");
    let red = index(&mut c, p, gl::FRAGMENT_SHADER, "red");
    c.uniform_subroutinesuiv(gl::FRAGMENT_SHADER, &[green, green]);
    assert_eq!(c.get_uniform_subroutineuiv(gl::FRAGMENT_SHADER, 1), green);
    assert_eq!(draw(&mut c)[0], [0, 255, 0, 255]);
    // The program already in use, again.
    c.use_program(p);
    assert_eq!(c.get_uniform_subroutineuiv(gl::FRAGMENT_SHADER, 0), red);
    assert_eq!(c.get_uniform_subroutineuiv(gl::FRAGMENT_SHADER, 1), red);
    assert_eq!(draw(&mut c)[0], [255, 0, 0, 255]);
    // A relink of the current program drops the selection made for the old executable.
    c.uniform_subroutinesuiv(gl::FRAGMENT_SHADER, &[green, green]);
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 1);
    assert_eq!(c.get_uniform_subroutineuiv(gl::FRAGMENT_SHADER, 0), red);
    assert_eq!(draw(&mut c)[0], [255, 0, 0, 255]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn queries_and_program_interfaces_describe_the_stages() {
    let mut c = setup(1);
    let fs = "#version 400
#extension GL_ARB_explicit_uniform_location : require
out vec4 c;
subroutine vec4 A();
subroutine vec4 B();
layout(location = 2) subroutine uniform A a_arr[2];
subroutine uniform B b_one;
subroutine(A, B) vec4 both() { return vec4(1.0); }
layout(index = 5) subroutine(B) vec4 only_b() { return vec4(0.5); }
void main() { c = a_arr[1]() + b_one(); }";
    let vs = "#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }";
    let p = program(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    let f = gl::FRAGMENT_SHADER;
    let stage = |c: &mut Context, pname| c.get_program_stageiv(p, f, pname);
    assert_eq!(stage(&mut c, gl::ACTIVE_SUBROUTINES), 2);
    assert_eq!(stage(&mut c, gl::ACTIVE_SUBROUTINE_UNIFORMS), 2);
    assert_eq!(stage(&mut c, gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS), 4);
    assert_eq!(stage(&mut c, gl::ACTIVE_SUBROUTINE_MAX_LENGTH), 7);
    assert_eq!(stage(&mut c, gl::ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH), 9);
    // A stage without subroutines, and one the program lacks.
    for s in [gl::VERTEX_SHADER, gl::GEOMETRY_SHADER] {
        assert_eq!(c.get_program_stageiv(p, s, gl::ACTIVE_SUBROUTINES), 0);
        assert_eq!(
            c.get_program_stageiv(p, s, gl::ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS),
            0
        );
    }
    assert_eq!(c.get_subroutine_index(p, f, "both"), 0);
    assert_eq!(c.get_subroutine_index(p, f, "only_b"), 5);
    assert_eq!(c.get_subroutine_index(p, f, "main"), gl::INVALID_INDEX);
    assert_eq!(
        c.get_subroutine_index(p, gl::VERTEX_SHADER, "both"),
        gl::INVALID_INDEX
    );
    assert_eq!(c.get_active_subroutine_name(p, f, 5), "only_b");
    assert_eq!(c.get_subroutine_uniform_location(p, f, "a_arr"), 2);
    assert_eq!(c.get_subroutine_uniform_location(p, f, "a_arr[1]"), 3);
    assert_eq!(c.get_subroutine_uniform_location(p, f, "b_one"), 0);
    assert_eq!(c.get_subroutine_uniform_location(p, f, "nope"), -1);
    assert_eq!(c.get_active_subroutine_uniform_name(p, f, 0), "a_arr[0]");
    assert_eq!(c.get_active_subroutine_uniform_name(p, f, 1), "b_one");
    let univ = |c: &mut Context, i, pname| c.get_active_subroutine_uniformiv(p, f, i, pname);
    assert_eq!(univ(&mut c, 0, gl::NUM_COMPATIBLE_SUBROUTINES), [1]);
    assert_eq!(univ(&mut c, 0, gl::COMPATIBLE_SUBROUTINES), [0]);
    assert_eq!(univ(&mut c, 1, gl::COMPATIBLE_SUBROUTINES), [0, 5]);
    assert_eq!(univ(&mut c, 0, gl::UNIFORM_SIZE), [2]);
    assert_eq!(univ(&mut c, 1, gl::UNIFORM_SIZE), [1]);
    assert_eq!(univ(&mut c, 0, gl::UNIFORM_NAME_LENGTH), [9]);
    // The subroutine uniforms are not uniforms.
    assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORMS), 0);
    assert_eq!(c.get_uniform_location(p, "b_one"), -1);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // The program interfaces list the same.
    let iface = |c: &mut Context, i, pname| c.get_program_interfaceiv(p, i, pname);
    assert_eq!(
        iface(&mut c, gl::FRAGMENT_SUBROUTINE, gl::ACTIVE_RESOURCES),
        [2]
    );
    assert_eq!(
        iface(&mut c, gl::FRAGMENT_SUBROUTINE, gl::MAX_NAME_LENGTH),
        [7]
    );
    assert_eq!(
        iface(
            &mut c,
            gl::FRAGMENT_SUBROUTINE_UNIFORM,
            gl::ACTIVE_RESOURCES
        ),
        [2]
    );
    assert_eq!(
        iface(
            &mut c,
            gl::FRAGMENT_SUBROUTINE_UNIFORM,
            gl::MAX_NUM_COMPATIBLE_SUBROUTINES
        ),
        [2]
    );
    for i in [
        gl::VERTEX_SUBROUTINE,
        gl::VERTEX_SUBROUTINE_UNIFORM,
        gl::TESS_CONTROL_SUBROUTINE,
        gl::TESS_CONTROL_SUBROUTINE_UNIFORM,
        gl::TESS_EVALUATION_SUBROUTINE,
        gl::TESS_EVALUATION_SUBROUTINE_UNIFORM,
        gl::GEOMETRY_SUBROUTINE,
        gl::GEOMETRY_SUBROUTINE_UNIFORM,
        gl::COMPUTE_SUBROUTINE,
        gl::COMPUTE_SUBROUTINE_UNIFORM,
    ] {
        assert_eq!(iface(&mut c, i, gl::ACTIVE_RESOURCES), [0], "{i:#x}");
    }
    let su = gl::FRAGMENT_SUBROUTINE_UNIFORM;
    assert_eq!(c.get_program_resource_index(p, su, "a_arr"), 0);
    assert_eq!(c.get_program_resource_index(p, su, "b_one"), 1);
    assert_eq!(c.get_program_resource_name(p, su, 0), "a_arr[0]");
    assert_eq!(c.get_program_resource_location(p, su, "a_arr[1]"), 3);
    assert_eq!(
        c.get_program_resourceiv(
            p,
            su,
            1,
            &[
                gl::NAME_LENGTH,
                gl::ARRAY_SIZE,
                gl::NUM_COMPATIBLE_SUBROUTINES,
                gl::COMPATIBLE_SUBROUTINES,
                gl::LOCATION
            ]
        ),
        [6, 1, 2, 0, 5, 0]
    );
    let sf = gl::FRAGMENT_SUBROUTINE;
    assert_eq!(c.get_program_resource_index(p, sf, "only_b"), 1);
    assert_eq!(c.get_program_resource_name(p, sf, 1), "only_b");
    assert_eq!(c.get_program_resourceiv(p, sf, 0, &[gl::NAME_LENGTH]), [5]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Properties the interfaces do not have, and no locations in SUBROUTINE.
    c.get_program_resourceiv(p, sf, 0, &[gl::LOCATION]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_program_resourceiv(p, su, 0, &[gl::TYPE]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_program_resource_location(p, sf, "both");
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.get_program_interfaceiv(p, sf, gl::MAX_NUM_COMPATIBLE_SUBROUTINES);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // The selection at the explicit locations; unused locations 0 and 1 are ignored.
    c.use_program(p);
    assert_eq!(c.get_uniform_subroutineuiv(f, 0), 0);
    c.uniform_subroutinesuiv(f, &[5, 99, 0, 0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniform_subroutineuiv(f, 0), 5);
    // Limits.
    assert!(c.get_integerv(gl::MAX_SUBROUTINES)[0] >= 256);
    assert!(c.get_integerv(gl::MAX_SUBROUTINE_UNIFORM_LOCATIONS)[0] >= 1024);
}

#[test]
fn every_error_of_the_commands() {
    let mut c = setup(1);
    let p = program(
        &mut c,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
    );
    let f = gl::FRAGMENT_SHADER;
    let (red, green, nothing) = (
        index(&mut c, p, f, "red"),
        index(&mut c, p, f, "green"),
        index(&mut c, p, f, "nothing"),
    );
    let place = index(&mut c, p, gl::VERTEX_SHADER, "whole");
    // No current program.
    c.uniform_subroutinesuiv(f, &[red, red]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_uniform_subroutineuiv(f, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.use_program(p);
    c.uniform_subroutinesuiv(f, &[green, nothing]);
    let fails = |c: &mut Context, want, call: &dyn Fn(&mut Context)| {
        call(c);
        assert_eq!(c.get_error(), want);
    };
    // The program has no geometry stage.
    fails(&mut c, gl::INVALID_OPERATION, &|c| {
        c.uniform_subroutinesuiv(gl::GEOMETRY_SHADER, &[])
    });
    fails(&mut c, gl::INVALID_OPERATION, &|c| {
        c.get_uniform_subroutineuiv(gl::GEOMETRY_SHADER, 0);
    });
    // Not a shader type.
    fails(&mut c, gl::INVALID_ENUM, &|c| {
        c.uniform_subroutinesuiv(gl::TEXTURE_2D, &[red, red])
    });
    fails(&mut c, gl::INVALID_ENUM, &|c| {
        c.get_uniform_subroutineuiv(gl::TEXTURE_2D, 0);
    });
    // Not every location, or more.
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.uniform_subroutinesuiv(f, &[red])
    });
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.uniform_subroutinesuiv(f, &[red, red, red])
    });
    // An index past the stage's subroutines.
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.uniform_subroutinesuiv(f, &[red, 3])
    });
    // A subroutine of another type (the vertex stage's indices mean other functions; in
    // the vertex stage `tint` takes no Place function).
    let no_tint = index(&mut c, p, gl::VERTEX_SHADER, "no_tint");
    let place_loc = c.get_subroutine_uniform_location(p, gl::VERTEX_SHADER, "place");
    let mut v = [no_tint; 2];
    v[place_loc as usize] = no_tint;
    fails(&mut c, gl::INVALID_OPERATION, &|c| {
        c.uniform_subroutinesuiv(gl::VERTEX_SHADER, &v)
    });
    let _ = place;
    // Nothing changed on the errors.
    assert_eq!(c.get_uniform_subroutineuiv(f, 0), green);
    assert_eq!(c.get_uniform_subroutineuiv(f, 1), nothing);
    // Locations out of range.
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_uniform_subroutineuiv(f, 2);
    });
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_uniform_subroutineuiv(f, -1);
    });
    // Indices out of range in the program queries.
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_active_subroutine_uniformiv(p, f, 2, gl::UNIFORM_SIZE);
    });
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_active_subroutine_uniform_name(p, f, 2);
    });
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_active_subroutine_name(p, f, 3);
    });
    fails(&mut c, gl::INVALID_VALUE, &|c| {
        c.get_active_subroutine_name(p, gl::GEOMETRY_SHADER, 0);
    });
    fails(&mut c, gl::INVALID_ENUM, &|c| {
        c.get_active_subroutine_uniformiv(p, f, 0, gl::UNIFORM_TYPE);
    });
    fails(&mut c, gl::INVALID_ENUM, &|c| {
        c.get_program_stageiv(p, f, gl::LINK_STATUS);
    });
    fails(&mut c, gl::INVALID_ENUM, &|c| {
        c.get_subroutine_index(p, gl::TEXTURE_2D, "red");
    });
    // Names that are not programs, shaders, programs not linked.
    let s = c.create_shader(gl::VERTEX_SHADER);
    let unlinked = c.create_program();
    for (name, want) in [
        (p + s + unlinked + 100, gl::INVALID_VALUE),
        (s, gl::INVALID_OPERATION),
        (unlinked, gl::INVALID_OPERATION),
    ] {
        fails(&mut c, want, &|c| {
            assert_eq!(c.get_subroutine_uniform_location(name, f, "colour"), -1);
        });
        fails(&mut c, want, &|c| {
            assert_eq!(c.get_subroutine_index(name, f, "red"), gl::INVALID_INDEX);
        });
        fails(&mut c, want, &|c| {
            c.get_active_subroutine_name(name, f, 0);
        });
        fails(&mut c, want, &|c| {
            c.get_active_subroutine_uniform_name(name, f, 0);
        });
        fails(&mut c, want, &|c| {
            c.get_active_subroutine_uniformiv(name, f, 0, gl::UNIFORM_SIZE);
        });
    }
    // An unlinked program has no subroutines (no error), a shader name is not a program.
    assert_eq!(
        c.get_program_stageiv(unlinked, f, gl::ACTIVE_SUBROUTINES),
        0
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn a_subroutine_uniform_without_functions_fails_the_link() {
    let mut c = setup(1);
    let fs = "#version 400
out vec4 c;
subroutine vec4 A();
subroutine uniform A a;
void main() { c = a(); }";
    let vs = "#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }";
    let p = c.create_program();
    for (kind, src) in [(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)] {
        let s = shader(&mut c, kind, src);
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
    assert!(
        c.get_program_info_log(p)
            .contains("has no function of its type"),
        "{}",
        c.get_program_info_log(p)
    );
    // The function in a second unit of the stage completes it.
    let more =
        "#version 400\nsubroutine vec4 A();\nsubroutine(A) vec4 white() { return vec4(1.0); }";
    let s = shader(&mut c, gl::FRAGMENT_SHADER, more);
    c.attach_shader(p, s);
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    c.use_program(p);
    assert_eq!(draw(&mut c), [[255; 4]; 2]);
}

#[test]
fn tessellation_stages_have_their_own_selections() {
    let vs = "#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }";
    // Both tessellation stages name their subroutine uniform `pick`.
    let tcs = "#version 400
layout(vertices = 4) out;
out vec4 t_col[];
subroutine vec4 Pick();
subroutine uniform Pick pick;
subroutine(Pick) vec4 none() { return vec4(0.0); }
subroutine(Pick) vec4 red() { return vec4(1.0, 0.0, 0.0, 0.0); }
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    t_col[gl_InvocationID] = pick();
    gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0;
    gl_TessLevelOuter[2] = 1.0; gl_TessLevelOuter[3] = 1.0;
    gl_TessLevelInner[0] = 1.0; gl_TessLevelInner[1] = 1.0;
}";
    let tes = "#version 400
layout(quads) in;
in vec4 t_col[];
out vec4 e_col;
subroutine vec4 Pick(vec4 c);
subroutine uniform Pick pick;
subroutine(Pick) vec4 plus_blue(vec4 c) { return c + vec4(0.0, 0.0, 1.0, 1.0); }
subroutine(Pick) vec4 plus_green(vec4 c) { return c + vec4(0.0, 1.0, 0.0, 1.0); }
void main() {
    vec2 u = gl_TessCoord.xy;
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, u.x),
                      mix(gl_in[2].gl_Position, gl_in[3].gl_Position, u.x), u.y);
    e_col = pick(t_col[0]);
}";
    let fs = "#version 400\nin vec4 e_col;\nout vec4 c;\nvoid main() { c = e_col; }";
    let got = both_threads(|threads| {
        let mut c = setup(threads);
        let p = program(
            &mut c,
            &[
                (gl::VERTEX_SHADER, vs),
                (gl::TESS_CONTROL_SHADER, tcs),
                (gl::TESS_EVALUATION_SHADER, tes),
                (gl::FRAGMENT_SHADER, fs),
            ],
        );
        c.use_program(p);
        c.patch_parameteri(gl::PATCH_VERTICES, 4);
        let draw_patch = |c: &mut Context| {
            c.clear_color(0.0, 0.0, 0.0, 0.0);
            c.clear(gl::COLOR_BUFFER_BIT);
            c.draw_arrays(gl::PATCHES, 0, 4);
            let px = c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE);
            assert!(px.chunks(4).all(|q| q == &px[..4]), "one colour");
            [px[0], px[1], px[2], px[3]]
        };
        let a = draw_patch(&mut c);
        select(&mut c, p, gl::TESS_CONTROL_SHADER, &[("pick", "red")]);
        let b = draw_patch(&mut c);
        select(
            &mut c,
            p,
            gl::TESS_EVALUATION_SHADER,
            &[("pick", "plus_green")],
        );
        let d = draw_patch(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        [a, b, d]
    });
    assert_eq!(
        got,
        [[0, 0, 255, 255], [255, 0, 255, 255], [255, 255, 0, 255]]
    );
}
