//! Issue #12 items 4 and 5 through the public `softgl::Context` API with the real GLSL
//! front end and JIT: occlusion queries count exactly the samples a draw writes (checked
//! against the image, with 1, 2 and 3 threads), ANY_SAMPLES_PASSED, PRIMITIVES_GENERATED,
//! timers, results without waiting and into query buffers, conditional rendering in every
//! mode, fences (in one context and across two), the indirect draws with their bounds
//! checks, and the errors of each command.

use softgl::{enums as gl, Context};

const W: u32 = 150;
const H: u32 = 70;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nuniform float z;\n\
                  void main() { gl_Position = vec4(pos, z, 1.0); }\n";

/// Writes `col`, discarding fragments left of x = `cut`.
const FS: &str = "#version 330\nuniform vec4 col;\nuniform float cut;\nout vec4 c;\n\
                  void main() { if (gl_FragCoord.x < cut) discard; c = col; }\n";

fn program(c: &mut Context) -> u32 {
    let p = c.create_program();
    for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_ne!(
            c.get_shaderiv(s, gl::COMPILE_STATUS),
            0,
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_ne!(
        c.get_programiv(p, gl::LINK_STATUS),
        0,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

fn bytes<T: Copy>(v: &[T], f: impl Fn(T) -> [u8; 4]) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

/// A context of `threads` workers with the program in use and a VAO over `verts`
/// (vec2 positions).
fn setup(threads: usize, verts: &[f32]) -> (Context, u32) {
    let mut c = Context::with_threads(W, H, threads);
    let p = program(&mut c);
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let b = bytes(verts, f32::to_le_bytes);
    c.buffer_data(
        gl::ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STATIC_DRAW,
    );
    c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0);
    c.enable_vertex_attrib_array(0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (c, p)
}

fn set(c: &mut Context, p: u32, z: f32, col: [f32; 4], cut: f32) {
    let l = c.get_uniform_location(p, "z");
    c.uniform_1f(l, z);
    let l = c.get_uniform_location(p, "col");
    c.uniform_4f(l, col[0], col[1], col[2], col[3]);
    let l = c.get_uniform_location(p, "cut");
    c.uniform_1f(l, cut);
}

fn read(c: &mut Context) -> Vec<[u8; 4]> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn count(img: &[[u8; 4]], px: [u8; 4]) -> u64 {
    img.iter().filter(|&&p| p == px).count() as u64
}

fn result(c: &mut Context, q: u32) -> u64 {
    let v = c.get_query_object(q, gl::QUERY_RESULT).expect("a result");
    assert_eq!(c.get_error(), gl::NO_ERROR);
    v
}

fn last_message(c: &mut Context) -> String {
    c.debug_messages()
        .pop()
        .map(|m| m.message)
        .unwrap_or_default()
}

/// Two triangles: a quad over the middle of the window (at depth `z = 0`) and a larger
/// slanted triangle (behind it, z = 0.5) whose edges cross tiles and 4×4 blocks at odd
/// places, so the block entry, the quad entry on the window's edge and partial blocks all
/// count.
const SCENE: [f32; 18] = [
    -0.5, -0.5, 0.5, -0.5, 0.5, 0.5, // quad, first half
    -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, // quad, second half
    -0.93, -1.1, 1.3, -0.2, -0.1, 0.97, // the slanted triangle
];

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];

/// Draws the scene with depth testing and returns the samples the slanted triangle passed
/// (behind the quad, discarding left of x = 17) and the image.
fn occlusion_scene(threads: usize) -> (u64, u64, Vec<[u8; 4]>) {
    let (mut c, p) = setup(threads, &SCENE);
    c.enable(gl::DEPTH_TEST);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    let q = c.gen_queries(2);
    c.begin_query(gl::SAMPLES_PASSED, q[0]);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::SAMPLES_PASSED);
    c.begin_query(gl::SAMPLES_PASSED, q[1]);
    set(&mut c, p, 0.5, [0.0, 1.0, 0.0, 1.0], 17.0);
    c.draw_arrays(gl::TRIANGLES, 6, 3);
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let quad = result(&mut c, q[0]);
    let tri = result(&mut c, q[1]);
    (quad, tri, read(&mut c))
}

#[test]
fn samples_passed_counts_exactly_the_samples_written_whatever_the_thread_count() {
    let (quad, tri, img) = occlusion_scene(1);
    // Every red pixel passed in the first query; every green one in the second (the
    // triangle covers each pixel once), nothing else did.
    assert_eq!(quad, count(&img, RED), "quad samples");
    assert!(quad > 0 && tri > 0);
    assert_eq!(
        tri,
        count(&img, GREEN),
        "triangle samples (depth test and discard)"
    );
    for threads in [2, 3] {
        let (q2, t2, img2) = occlusion_scene(threads);
        assert_eq!((q2, t2), (quad, tri), "{threads} threads");
        assert!(img2 == img, "{threads} threads: the image differs");
    }
}

#[test]
fn any_samples_passed_and_no_query_when_none_is_active() {
    let (mut c, p) = setup(2, &SCENE);
    c.enable(gl::DEPTH_TEST);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    let q = c.gen_queries(3);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    c.begin_query(gl::ANY_SAMPLES_PASSED, q[0]);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::ANY_SAMPLES_PASSED);
    // Same quad behind itself: nothing passes.
    c.begin_query(gl::ANY_SAMPLES_PASSED_CONSERVATIVE, q[1]);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::ANY_SAMPLES_PASSED_CONSERVATIVE);
    // Everything discarded.
    set(&mut c, p, -0.5, [1.0, 0.0, 0.0, 1.0], 1e9);
    c.begin_query(gl::SAMPLES_PASSED, q[2]);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(result(&mut c, q[0]), 1);
    assert_eq!(result(&mut c, q[1]), 0);
    assert_eq!(result(&mut c, q[2]), 0);
    assert_eq!(
        c.get_queryiv(gl::ANY_SAMPLES_PASSED, gl::QUERY_COUNTER_BITS),
        1
    );
    assert_eq!(
        c.get_queryiv(gl::SAMPLES_PASSED, gl::QUERY_COUNTER_BITS),
        64
    );
    assert_eq!(c.get_queryiv(gl::TIMESTAMP, gl::QUERY_COUNTER_BITS), 64);
}

#[test]
fn results_are_ready_after_the_work_runs_and_no_wait_does_not_wait() {
    let (mut c, p) = setup(2, &SCENE);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    let q = c.gen_queries(1)[0];
    assert!(
        !c.is_query(q),
        "a generated name has no object before first use"
    );
    c.begin_query(gl::SAMPLES_PASSED, q);
    assert!(c.is_query(q));
    assert_eq!(
        c.get_queryiv(gl::SAMPLES_PASSED, gl::CURRENT_QUERY),
        q as i32
    );
    assert_eq!(c.get_queryiv(gl::ANY_SAMPLES_PASSED, gl::CURRENT_QUERY), 0);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    // Reading an active query is an error.
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(c.get_queryiv(gl::SAMPLES_PASSED, gl::CURRENT_QUERY), 0);
    // The draw is still queued: NO_WAIT writes nothing.
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT_NO_WAIT), None);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_query_object(q, gl::QUERY_TARGET),
        Some(gl::SAMPLES_PASSED as u64)
    );
    // glFlush runs it; then NO_WAIT answers.
    c.flush();
    let n = c
        .get_query_object(q, gl::QUERY_RESULT_NO_WAIT)
        .expect("ready after glFlush");
    assert_eq!(n, count(&read(&mut c), RED));
    // Polling availability runs queued work, so a poll loop ends.
    c.begin_query(gl::SAMPLES_PASSED, q);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT_AVAILABLE), Some(1));
    let half = c
        .get_query_object(q, gl::QUERY_RESULT_NO_WAIT)
        .expect("ready");
    assert!(half > 0 && half < n, "{half} of {n}");
}

#[test]
fn results_into_a_query_buffer() {
    let (mut c, p) = setup(1, &SCENE);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    let q = c.create_queries(gl::SAMPLES_PASSED, 1)[0];
    assert!(c.is_query(q), "glCreateQueries makes the object");
    c.begin_query(gl::SAMPLES_PASSED, q);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::SAMPLES_PASSED);
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::QUERY_BUFFER, b);
    c.buffer_data(gl::QUERY_BUFFER, 24, Some(&[0xAA; 24]), gl::STATIC_DRAW);
    assert_eq!(c.get_integerv(gl::QUERY_BUFFER_BINDING), vec![b as i32]);
    // NO_WAIT before the work ran leaves the buffer alone.
    c.get_query_object_into_buffer(q, 0, gl::QUERY_RESULT_NO_WAIT, 0, gl::UNSIGNED_INT64_ARB);
    assert_eq!(c.get_buffer_sub_data(gl::QUERY_BUFFER, 0, 8), vec![0xAA; 8]);
    c.get_query_object_into_buffer(q, 0, gl::QUERY_RESULT, 4, gl::UNSIGNED_INT64_ARB);
    c.get_query_object_into_buffer(q, 0, gl::QUERY_RESULT_AVAILABLE, 16, gl::INT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let n = count(&read(&mut c), RED);
    let data = c.get_buffer_sub_data(gl::QUERY_BUFFER, 0, 24);
    assert_eq!(&data[0..4], &[0xAA; 4]);
    assert_eq!(u64::from_le_bytes(data[4..12].try_into().unwrap()), n);
    assert_eq!(&data[12..16], &[0xAA; 4]);
    assert_eq!(i32::from_le_bytes(data[16..20].try_into().unwrap()), 1);
    // Past the end: INVALID_OPERATION, nothing written.
    c.get_query_object_into_buffer(q, 0, gl::QUERY_RESULT, 20, gl::UNSIGNED_INT64_ARB);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_query_object_into_buffer(q, 0, gl::QUERY_RESULT, -4, gl::INT);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // The DSA form names its buffer; without a QUERY_BUFFER binding the plain form writes
    // to memory again.
    c.bind_buffer(gl::QUERY_BUFFER, 0);
    c.get_query_object_into_buffer(q, b, gl::QUERY_RESULT, 0, gl::UNSIGNED_INT);
    c.bind_buffer(gl::COPY_READ_BUFFER, b);
    let data = c.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, 4);
    assert_eq!(u32::from_le_bytes(data[..4].try_into().unwrap()) as u64, n);
}

#[test]
fn primitives_generated_and_timers() {
    let (mut c, p) = setup(2, &SCENE);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    let q = c.gen_queries(4);
    c.begin_query(gl::PRIMITIVES_GENERATED, q[0]);
    c.begin_query(gl::TIME_ELAPSED, q[1]);
    c.draw_arrays_instanced(gl::TRIANGLES, 0, 8, 3); // 2 triangles × 3
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 6); // 4
    c.draw_arrays(gl::TRIANGLE_FAN, 0, 2); // 0
    c.end_query(gl::TIME_ELAPSED);
    c.end_query(gl::PRIMITIVES_GENERATED);
    assert_eq!(result(&mut c, q[0]), 10);
    assert!(result(&mut c, q[1]) > 0, "the draws took time");
    // Other streams generate nothing (no geometry shader).
    c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 1, q[2]);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query_indexed(gl::PRIMITIVES_GENERATED, 1);
    assert_eq!(result(&mut c, q[2]), 0);
    c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 4, q[2]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Timestamps increase, glGetInteger64v's with them.
    let t0 = c.get_integer64v(gl::TIMESTAMP)[0];
    c.query_counter(q[3], gl::TIMESTAMP);
    let t1 = result(&mut c, q[3]);
    let t2 = c.get_integer64v(gl::TIMESTAMP)[0];
    assert!(
        t0 > 0 && t0 as u64 <= t1 && t1 <= t2 as u64,
        "{t0} {t1} {t2}"
    );
    assert!(c.get_integer64v(gl::MAX_SERVER_WAIT_TIMEOUT)[0] > 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn query_errors_name_the_call() {
    let (mut c, _) = setup(1, &SCENE);
    let q = c.gen_queries(2);
    c.debug_messages();
    c.begin_query(gl::TIMESTAMP, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert!(last_message(&mut c).starts_with("glBeginQuery: GL_INVALID_ENUM"));
    c.begin_query(gl::SAMPLES_PASSED, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.begin_query(gl::SAMPLES_PASSED, 12345);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.begin_query_indexed(gl::SAMPLES_PASSED, 1, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.debug_messages();
    c.begin_query(gl::SAMPLES_PASSED, q[0]);
    // One occlusion query at a time (Mesa's single binding point), the same object
    // not twice.
    c.begin_query(gl::ANY_SAMPLES_PASSED, q[1]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.begin_query(gl::TIME_ELAPSED, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Ending another occlusion target than the active one.
    c.end_query(gl::ANY_SAMPLES_PASSED);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert!(last_message(&mut c).starts_with("glEndQuery: GL_INVALID_OPERATION"));
    c.end_query(gl::SAMPLES_PASSED);
    // A query object keeps its target.
    c.begin_query(gl::TIME_ELAPSED, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.query_counter(q[1], gl::TIME_ELAPSED);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(c.get_query_object(q[1], gl::QUERY_RESULT), None);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "never used: no object"
    );
    c.get_query_object(q[0], gl::CURRENT_QUERY);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.get_queryiv(gl::SAMPLES_PASSED, gl::QUERY_RESULT);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.create_queries(gl::TEXTURE_2D, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Deleting an active query ends it.
    c.begin_query(gl::SAMPLES_PASSED, q[0]);
    c.delete_queries(&q);
    assert!(!c.is_query(q[0]));
    assert_eq!(c.get_queryiv(gl::SAMPLES_PASSED, gl::CURRENT_QUERY), 0);
    let r = c.gen_queries(1)[0];
    c.begin_query(gl::SAMPLES_PASSED, r);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Draws the full window green under conditional rendering on a query that passed
/// (`passed`) or not, in `mode`; returns whether it was drawn (and cleared).
fn conditional(passed: bool, mode: u32) -> (bool, bool) {
    let (mut c, p) = setup(2, &SCENE);
    let q = c.gen_queries(1)[0];
    set(
        &mut c,
        p,
        0.0,
        [1.0, 0.0, 0.0, 1.0],
        if passed { -1.0 } else { 1e9 },
    );
    c.begin_query(gl::SAMPLES_PASSED, q);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_query(gl::SAMPLES_PASSED);
    c.begin_conditional_render(q, mode);
    set(&mut c, p, 0.0, [0.0, 1.0, 0.0, 1.0], -1.0);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    c.end_conditional_render();
    let drawn = count(&read(&mut c), GREEN) > 0;
    c.begin_conditional_render(q, mode);
    c.clear_color(0.0, 0.0, 1.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.end_conditional_render();
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let cleared = count(&read(&mut c), [0, 0, 255, 255]) == (W * H) as u64;
    (drawn, cleared)
}

#[test]
fn conditional_rendering_in_every_mode() {
    for mode in [
        gl::QUERY_WAIT,
        gl::QUERY_NO_WAIT,
        gl::QUERY_BY_REGION_WAIT,
        gl::QUERY_BY_REGION_NO_WAIT,
    ] {
        assert_eq!(conditional(true, mode), (true, true), "{mode:#x}");
        assert_eq!(conditional(false, mode), (false, false), "{mode:#x}");
    }
    for mode in [
        gl::QUERY_WAIT_INVERTED,
        gl::QUERY_NO_WAIT_INVERTED,
        gl::QUERY_BY_REGION_WAIT_INVERTED,
        gl::QUERY_BY_REGION_NO_WAIT_INVERTED,
    ] {
        assert_eq!(conditional(true, mode), (false, false), "{mode:#x}");
        assert_eq!(conditional(false, mode), (true, true), "{mode:#x}");
    }
}

#[test]
fn conditional_rendering_errors() {
    let (mut c, _) = setup(1, &SCENE);
    let q = c.gen_queries(2);
    c.begin_conditional_render(q[0], gl::QUERY_WAIT);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "no object yet");
    c.query_counter(q[1], gl::TIMESTAMP);
    c.begin_conditional_render(q[1], gl::QUERY_WAIT);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "not an occlusion query"
    );
    c.begin_query(gl::SAMPLES_PASSED, q[0]);
    c.begin_conditional_render(q[0], gl::QUERY_WAIT);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "active");
    c.end_query(gl::SAMPLES_PASSED);
    c.begin_conditional_render(q[0], gl::SAMPLES_PASSED);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.end_conditional_render();
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.begin_conditional_render(q[0], gl::QUERY_WAIT);
    c.begin_conditional_render(q[0], gl::QUERY_WAIT);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "already active");
    c.end_conditional_render();
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn fences_signal_when_the_work_before_them_has_run() {
    let (mut c, p) = setup(2, &SCENE);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    // Nothing queued: signaled at once.
    let idle = c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_ne!(idle, 0);
    assert_eq!(c.get_synciv(idle, gl::SYNC_STATUS), gl::SIGNALED as i32);
    assert_eq!(c.client_wait_sync(idle, 0, 0), gl::ALREADY_SIGNALED);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    let f = c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert!(c.is_sync(f));
    assert_eq!(c.get_synciv(f, gl::SYNC_STATUS), gl::UNSIGNALED as i32);
    assert_eq!(c.get_synciv(f, gl::OBJECT_TYPE), gl::SYNC_FENCE as i32);
    assert_eq!(
        c.get_synciv(f, gl::SYNC_CONDITION),
        gl::SYNC_GPU_COMMANDS_COMPLETE as i32
    );
    assert_eq!(c.get_synciv(f, gl::SYNC_FLAGS), 0);
    assert_eq!(c.client_wait_sync(f, 0, 0), gl::TIMEOUT_EXPIRED);
    c.wait_sync(f, 0, u64::MAX);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // A zero timeout tests; the flush bit runs the work, so the next poll succeeds.
    assert_eq!(
        c.client_wait_sync(f, gl::SYNC_FLUSH_COMMANDS_BIT, 0),
        gl::TIMEOUT_EXPIRED
    );
    assert_eq!(c.get_synciv(f, gl::SYNC_STATUS), gl::SIGNALED as i32);
    assert_eq!(c.client_wait_sync(f, 0, 1_000_000), gl::ALREADY_SIGNALED);
    // The draw has run: its pixels are there.
    assert!(count(&read(&mut c), RED) > 0);
    // A wait with a timeout runs the work; glFlush signals too.
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    let g = c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_eq!(c.client_wait_sync(g, 0, 1), gl::CONDITION_SATISFIED);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    let h = c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    c.flush();
    assert_eq!(c.get_synciv(h, gl::SYNC_STATUS), gl::SIGNALED as i32);
    for s in [idle, f, g, h] {
        c.delete_sync(s);
    }
    assert!(!c.is_sync(f));
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn sync_errors() {
    let (mut c, _) = setup(1, &SCENE);
    c.debug_messages();
    assert_eq!(c.fence_sync(gl::SYNC_FENCE, 0), 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert!(last_message(&mut c).starts_with("glFenceSync: GL_INVALID_ENUM"));
    assert_eq!(c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 1), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let f = c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert_eq!(c.client_wait_sync(f, 2, 0), gl::WAIT_FAILED);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.client_wait_sync(f + 1000, 0, 0), gl::WAIT_FAILED);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert!(last_message(&mut c).starts_with("glClientWaitSync: GL_INVALID_VALUE"));
    c.wait_sync(f, 0, 5);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.wait_sync(f, 1, u64::MAX);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_synciv(f, gl::SYNC_GPU_COMMANDS_COMPLETE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.delete_sync(0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.delete_sync(f);
    c.delete_sync(f);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert!(!c.is_sync(0));
}

/// A fence of one context, waited on in another of its share group on another thread,
/// signals when the first context flushes; without that flush the wait times out.
#[test]
fn a_fence_waited_on_in_another_context() {
    let (mut a, p) = setup(1, &SCENE);
    set(&mut a, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    let mut b = Context::with_attribs(&Default::default(), Some(&a)).expect("context");
    a.draw_arrays(gl::TRIANGLES, 0, 6);
    let f = a.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    assert!(b.is_sync(f), "sync objects are shared");
    assert_eq!(b.client_wait_sync(f, 0, 2_000_000), gl::TIMEOUT_EXPIRED);
    let waiter = std::thread::spawn(move || {
        let r = b.client_wait_sync(f, gl::SYNC_FLUSH_COMMANDS_BIT, 20_000_000_000);
        (r, b.get_error())
    });
    std::thread::sleep(std::time::Duration::from_millis(20));
    a.flush();
    assert_eq!(
        waiter.join().expect("waiter"),
        (gl::CONDITION_SATISFIED, gl::NO_ERROR)
    );
}

/// Index and indirect buffers for the scene's quad drawn three ways.
fn indirect_setup(threads: usize) -> (Context, u32) {
    let (mut c, p) = setup(threads, &SCENE);
    set(&mut c, p, 0.0, [1.0, 0.0, 0.0, 1.0], -1.0);
    let ib = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ib);
    // Indices 3..9 are the quad's vertices; the others name no vertex.
    let idx: Vec<u8> = [9u16, 9, 9, 0, 1, 2, 3, 4, 5, 9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        idx.len() as isize,
        Some(&idx),
        gl::STATIC_DRAW,
    );
    (c, p)
}

fn indirect_buffer(c: &mut Context, words: &[u32]) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::DRAW_INDIRECT_BUFFER, b);
    let d = bytes(words, u32::to_le_bytes);
    c.buffer_data(
        gl::DRAW_INDIRECT_BUFFER,
        d.len() as isize,
        Some(&d),
        gl::STATIC_DRAW,
    );
    assert_eq!(
        c.get_integerv(gl::DRAW_INDIRECT_BUFFER_BINDING),
        vec![b as i32]
    );
    b
}

#[test]
fn indirect_draws_draw_what_their_commands_say() {
    let (mut c, _) = indirect_setup(2);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    let want = read(&mut c);
    assert!(count(&want, RED) > 0);
    let clear = |c: &mut Context| {
        c.clear_color(0.0, 0.0, 0.0, 0.0);
        c.clear(gl::COLOR_BUFFER_BIT);
    };
    // DrawArraysIndirect at offset 8: {count 6, instances 1, first 0, base instance 0}.
    clear(&mut c);
    indirect_buffer(&mut c, &[7, 7, 6, 1, 0, 0]);
    c.draw_arrays_indirect(gl::TRIANGLES, 8);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(read(&mut c) == want, "glDrawArraysIndirect");
    // DrawElementsIndirect: {count 6, 1, firstIndex 3, baseVertex 0, 0}.
    clear(&mut c);
    indirect_buffer(&mut c, &[6, 1, 3, 0, 0]);
    c.draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_SHORT, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(read(&mut c) == want, "glDrawElementsIndirect");
    // MultiDrawArraysIndirect, two commands 20 bytes apart (three vertices each), and
    // one with no instances.
    clear(&mut c);
    indirect_buffer(&mut c, &[3, 1, 0, 0, 99, 3, 1, 3, 0, 99, 3, 0, 6, 0, 99]);
    c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, 3, 20);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(read(&mut c) == want, "glMultiDrawArraysIndirect");
    // MultiDrawElementsIndirect, packed: the indices at 3..6 (0, 1, 2), then 6..9 (3, 4, 5).
    clear(&mut c);
    indirect_buffer(&mut c, &[3, 1, 3, 0, 0, 3, 1, 6, 0, 0]);
    c.multi_draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_SHORT, 0, 2, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(read(&mut c) == want, "glMultiDrawElementsIndirect");
    // The Count form: the parameter buffer says 1 draw (of at most 2): half the quad.
    clear(&mut c);
    let pb = c.gen_buffers(1)[0];
    c.bind_buffer(gl::PARAMETER_BUFFER, pb);
    c.buffer_data(
        gl::PARAMETER_BUFFER,
        8,
        Some(&[0, 0, 0, 0, 1, 0, 0, 0]),
        gl::STATIC_DRAW,
    );
    indirect_buffer(&mut c, &[3, 1, 0, 0, 3, 1, 3, 0]);
    c.multi_draw_arrays_indirect_count(gl::TRIANGLES, 0, 4, 2, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let half = count(&read(&mut c), RED);
    assert!(half > 0 && half < count(&want, RED));
    clear(&mut c);
    // As elements commands (20 bytes) only one fits: the range checked is maxdrawcount's.
    c.multi_draw_elements_indirect_count(gl::TRIANGLES, gl::UNSIGNED_SHORT, 0, 4, 2, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.multi_draw_elements_indirect_count(gl::TRIANGLES, gl::UNSIGNED_SHORT, 0, 4, 1, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn indirect_commands_outside_the_buffer_are_errors_never_reads() {
    let (mut c, _) = indirect_setup(1);
    c.debug_messages();
    c.draw_arrays_indirect(gl::TRIANGLES, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no indirect buffer");
    assert!(last_message(&mut c).starts_with("glDrawArraysIndirect: GL_INVALID_OPERATION"));
    indirect_buffer(&mut c, &[6, 1, 0, 0, 6]);
    c.draw_arrays_indirect(gl::TRIANGLES, 8);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "command past the end");
    c.draw_arrays_indirect(gl::TRIANGLES, usize::MAX - 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "offset overflows");
    c.draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_SHORT, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_arrays_indirect(gl::TRIANGLES, 2);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "misaligned");
    c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, 2, 0);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "second command past the end"
    );
    c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, 1, 6);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "stride");
    c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, -1, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, i32::MAX, 1 << 30);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_elements_indirect(gl::TRIANGLES, gl::FLOAT, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.multi_draw_arrays_indirect_count(gl::TRIANGLES, 0, 0, 1, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no parameter buffer");
    // A huge count in a command (a u32 past i32::MAX) draws nothing, without an error.
    indirect_buffer(&mut c, &[u32::MAX, 1, 0, 0]);
    c.draw_arrays_indirect(gl::TRIANGLES, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Nothing drew.
    assert_eq!(count(&read(&mut c), RED), 0);
}

#[test]
fn the_new_commands_have_c_entry_points() {
    let missing: Vec<&str> = softgl::missing_entry_points().iter().map(|m| m.0).collect();
    for name in [
        "glGenQueries",
        "glCreateQueries",
        "glDeleteQueries",
        "glIsQuery",
        "glBeginQuery",
        "glBeginQueryIndexed",
        "glEndQuery",
        "glEndQueryIndexed",
        "glQueryCounter",
        "glGetQueryiv",
        "glGetQueryIndexediv",
        "glGetQueryObjectiv",
        "glGetQueryObjectuiv",
        "glGetQueryObjecti64v",
        "glGetQueryObjectui64v",
        "glGetQueryBufferObjectiv",
        "glGetQueryBufferObjectuiv",
        "glGetQueryBufferObjecti64v",
        "glGetQueryBufferObjectui64v",
        "glBeginConditionalRender",
        "glEndConditionalRender",
        "glFenceSync",
        "glClientWaitSync",
        "glWaitSync",
        "glDeleteSync",
        "glIsSync",
        "glGetSynciv",
        "glDrawArraysIndirect",
        "glDrawElementsIndirect",
        "glMultiDrawArraysIndirect",
        "glMultiDrawElementsIndirect",
        "glMultiDrawArraysIndirectCount",
        "glMultiDrawElementsIndirectCount",
    ] {
        assert!(!softgl::get_proc_address(name).is_null(), "{name}");
        assert!(!missing.contains(&name), "{name} is listed as missing");
    }
}
