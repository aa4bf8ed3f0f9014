//! Issue #11 item 3 through the public API, with the real GLSL front end and JIT: a runaway
//! shader loop ends (the loop budget), the same way with 1 and 4 threads, the application
//! hears of it (a KHR_debug message naming the program; with LOSE_CONTEXT_ON_RESET a
//! GUILTY_CONTEXT_RESET and a lost context), GL_KHR_robustness's queries and bounded reads,
//! and indexed draw counts clamped to the index buffer.

use std::time::{Duration, Instant};

use softgl::{enums as gl, get_proc_address, make_current, Context, ContextAttribs, Surface};

const W: u32 = 8;
const H: u32 = 8;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

/// Pixels left of x = 4 count to `n` and leave; the others never leave their loop.
const RUNAWAY_FS: &str = "#version 330\nuniform int n;\nout vec4 c;\n\
    void main() {\n\
      int i = 0;\n\
      while (true) {\n\
        if (gl_FragCoord.x < 4.0 && i >= n) break;\n\
        i++;\n\
      }\n\
      c = vec4(float(i) / 255.0, 0.0, 1.0, 1.0);\n\
    }\n";

const PLAIN_FS: &str = "#version 330\nuniform vec4 col;\nout vec4 c;\n\
                        void main() { c = col; }\n";

fn with_surface(mut c: Context) -> Context {
    c.set_default_surface(Some(&Surface::new(W, H, true).expect("surface")));
    c
}

fn lose_context_attribs() -> ContextAttribs {
    ContextAttribs {
        debug: true,
        robust_access: true,
        lose_context_on_reset: true,
        ..ContextAttribs::default()
    }
}

fn program(c: &mut Context, fs: &str) -> u32 {
    let p = c.create_program();
    for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, fs)] {
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

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A VAO whose attribute 0 reads `verts` (vec2 per vertex).
fn vao_with(c: &mut Context, verts: &[f32]) -> u32 {
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let bytes = f32_bytes(verts);
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0);
    c.enable_vertex_attrib_array(0);
    vao
}

/// One triangle covering the window.
fn fullscreen(c: &mut Context) -> u32 {
    vao_with(c, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0])
}

fn read(c: &mut Context) -> Vec<u8> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// Draws the runaway shader over the window (cleared to grey) and returns the image.
fn draw_runaway(c: &mut Context, n: i32) -> (u32, Vec<u8>) {
    let p = program(c, RUNAWAY_FS);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "n");
    c.uniform_1i(loc, n);
    fullscreen(c);
    c.clear_color(0.5, 0.5, 0.5, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let start = Instant::now();
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let img = read(c);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "the runaway draw took {:?}",
        start.elapsed()
    );
    (p, img)
}

fn budget_messages(c: &mut Context) -> Vec<String> {
    c.debug_messages()
        .into_iter()
        .filter(|m| m.message.contains("loop budget"))
        .map(|m| {
            assert_eq!(m.severity, gl::DEBUG_SEVERITY_HIGH, "{m:?}");
            m.message
        })
        .collect()
}

/// NO_RESET_NOTIFICATION (the default): the runaway invocations are cut, every other pixel
/// is drawn, a high-severity message names the program once per draw, the reset status
/// stays NO_ERROR and drawing goes on. The image is the same with 1 and 4 threads.
#[test]
fn a_runaway_loop_is_cut_and_reported_and_drawing_goes_on() {
    let mut images = Vec::new();
    for threads in [1, 4] {
        let mut c = with_surface(Context::with_threads(W, H, threads));
        c.debug_messages();
        let (p, img) = draw_runaway(&mut c, 7);
        for y in 0..H as usize {
            for x in 0..W as usize {
                let px = &img[(y * W as usize + x) * 4..][..4];
                if x < 4 {
                    assert_eq!(px, [7, 0, 255, 255], "({x}, {y}) counted to 7");
                } else {
                    assert_eq!(px, [128, 128, 128, 255], "({x}, {y}) was cut: not written");
                }
            }
        }
        let msgs = budget_messages(&mut c);
        assert_eq!(msgs.len(), 1, "one message per draw: {msgs:?}");
        assert!(
            msgs[0].starts_with(&format!("program {p}: a shader invocation ran out of its loop budget (65536 loop iterations")),
            "{msgs:?}"
        );
        assert!(msgs[0].contains("NO_RESET_NOTIFICATION"), "{msgs:?}");
        assert_eq!(c.get_graphics_reset_status(), gl::NO_ERROR);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert!(!c.is_context_lost());
        // Drawing goes on.
        let q = program(&mut c, PLAIN_FS);
        c.use_program(q);
        let loc = c.get_uniform_location(q, "col");
        c.uniform_4f(loc, 1.0, 0.0, 0.0, 1.0);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        assert_eq!(&read(&mut c)[..4], [255, 0, 0, 255]);
        assert!(budget_messages(&mut c).is_empty());
        images.push(img);
    }
    assert_eq!(images[0], images[1], "1 and 4 threads");
}

/// LOSE_CONTEXT_ON_RESET: the runaway draw resets the context: GUILTY_CONTEXT_RESET once,
/// then NO_ERROR; every other command records GL_CONTEXT_LOST and does nothing.
#[test]
fn lose_context_on_reset_reports_a_guilty_reset_then_the_context_is_lost() {
    let mut c = with_surface(Context::with_attribs(&lose_context_attribs(), None).unwrap());
    assert_eq!(
        c.get_integerv(gl::RESET_NOTIFICATION_STRATEGY),
        vec![gl::LOSE_CONTEXT_ON_RESET as i32]
    );
    assert_eq!(c.get_booleanv(gl::CONTEXT_ROBUST_ACCESS), vec![true]);
    assert_ne!(
        c.get_integerv(gl::CONTEXT_FLAGS)[0] as u32 & gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT,
        0
    );
    assert_eq!(c.get_graphics_reset_status(), gl::NO_ERROR, "no reset yet");
    c.debug_messages();
    let (p, img) = draw_runaway(&mut c, 3);
    // The image is the one NO_RESET_NOTIFICATION gives: the budget is the same.
    assert_eq!(&img[..4], [3, 0, 255, 255]);
    assert_eq!(&img[4 * 4..][..4], [128, 128, 128, 255]);
    let msgs = budget_messages(&mut c);
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert!(msgs[0].starts_with(&format!("program {p}: ")), "{msgs:?}");
    assert!(msgs[0].contains("GL_GUILTY_CONTEXT_RESET"), "{msgs:?}");
    assert!(c.is_context_lost());
    assert_eq!(c.get_graphics_reset_status(), gl::GUILTY_CONTEXT_RESET);
    assert_eq!(c.get_graphics_reset_status(), gl::NO_ERROR, "reported once");
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Lost: commands do nothing and record GL_CONTEXT_LOST.
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
    assert!(read(&mut c).is_empty());
    assert_eq!(c.get_integerv(gl::MAJOR_VERSION), Vec::<i32>::new());
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A lost context still answers a program polling a fence or a query (GL 4.5 core §2.3.1):
/// GL_SYNC_STATUS is GL_SIGNALED and GL_QUERY_RESULT_AVAILABLE is GL_TRUE; any other
/// question about them is GL_CONTEXT_LOST.
#[test]
fn a_lost_context_answers_fence_and_query_polls() {
    let mut c = with_surface(Context::with_attribs(&lose_context_attribs(), None).unwrap());
    let q = c.gen_queries(1)[0];
    c.begin_query(gl::SAMPLES_PASSED, q);
    let (_, img) = draw_runaway(&mut c, 3);
    assert!(!img.is_empty());
    assert!(c.is_context_lost());
    assert_eq!(c.get_graphics_reset_status(), gl::GUILTY_CONTEXT_RESET);
    // Both made after the reset: a query never ended and a fence never made (name 1).
    c.end_query(gl::SAMPLES_PASSED);
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
    assert_eq!(c.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0), 0);
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT_AVAILABLE), Some(1));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), None);
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
    assert_eq!(c.get_synciv(1, gl::SYNC_STATUS), gl::SIGNALED as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_synciv(1, gl::OBJECT_TYPE);
    assert_eq!(c.get_error(), gl::CONTEXT_LOST);
}

/// The same through the C entry points: glGetGraphicsResetStatus and its KHR alias.
#[test]
fn reset_status_through_the_c_entry_points() {
    let shared = std::sync::Arc::new(std::sync::Mutex::new(with_surface(
        Context::with_attribs(&lose_context_attribs(), None).unwrap(),
    )));
    make_current(Some(shared.clone()));
    let status = |name: &str| {
        let f = get_proc_address(name);
        assert!(!f.is_null(), "{name}");
        // SAFETY: glGetGraphicsResetStatus's C signature: GLenum (void).
        let f: extern "system" fn() -> u32 = unsafe { std::mem::transmute(f) };
        f()
    };
    assert_eq!(status("glGetGraphicsResetStatus"), gl::NO_ERROR);
    draw_runaway(&mut shared.lock().unwrap(), 1);
    assert_eq!(
        status("glGetGraphicsResetStatusKHR"),
        gl::GUILTY_CONTEXT_RESET
    );
    assert_eq!(status("glGetGraphicsResetStatus"), gl::NO_ERROR);
    let f = get_proc_address("glClear");
    // SAFETY: glClear's C signature.
    let clear: extern "system" fn(u32) = unsafe { std::mem::transmute(f) };
    clear(gl::COLOR_BUFFER_BIT);
    let f = get_proc_address("glGetError");
    // SAFETY: glGetError's C signature.
    let get_error: extern "system" fn() -> u32 = unsafe { std::mem::transmute(f) };
    assert_eq!(get_error(), gl::CONTEXT_LOST);
    make_current(None);
}

/// glReadnPixels and glGetnUniform*v: a destination too small is GL_INVALID_OPERATION and
/// nothing is returned; one large enough gives what the unbounded forms give.
#[test]
fn bounded_reads() {
    let mut c = with_surface(Context::new(W, H));
    let p = program(&mut c, PLAIN_FS);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "col");
    c.uniform_4f(loc, 0.25, 0.5, 1.0, 1.0);
    assert_eq!(c.getn_uniformfv(p, loc, 15), Vec::<f32>::new());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_eq!(c.getn_uniformfv(p, loc, 16), [0.25, 0.5, 1.0, 1.0]);
    assert_eq!(c.getn_uniformiv(p, loc, 4), Vec::<i32>::new());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_eq!(c.getn_uniformuiv(p, loc, -1), Vec::<u32>::new());
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.clear_color(0.0, 1.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let need = (W * H * 4) as i32;
    let small = c.readn_pixels(
        0,
        0,
        W as i32,
        H as i32,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        need - 1,
    );
    assert!(small.is_empty());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let full = c.readn_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE, need);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(full, read(&mut c));
    assert_eq!(&full[..4], [0, 255, 0, 255]);
    let exts: Vec<String> = (0..c.get_integerv(gl::NUM_EXTENSIONS)[0] as u32)
        .filter_map(|i| c.get_stringi(gl::EXTENSIONS, i))
        .collect();
    assert!(exts.iter().any(|e| e == "GL_KHR_robustness"), "{exts:?}");
}

/// A triangle list of `n` small triangles over the window, as a vertex array.
fn grid_vertices() -> Vec<f32> {
    let mut v = Vec::new();
    for i in 0..16 {
        let x = -1.0 + (i % 4) as f32 * 0.5;
        let y = -1.0 + (i / 4) as f32 * 0.5;
        v.extend_from_slice(&[x, y, x + 0.5, y, x, y + 0.5]);
    }
    v
}

fn draw_indexed(c: &mut Context, indices: &[u8], offset: usize, count: i32) -> (Vec<u8>, Duration) {
    let p = program(c, PLAIN_FS);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "col");
    c.uniform_4f(loc, 1.0, 1.0, 0.0, 1.0);
    vao_with(c, &grid_vertices());
    let ebo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        indices.len() as isize,
        Some(indices),
        gl::STATIC_DRAW,
    );
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let start = Instant::now();
    c.draw_elements(gl::TRIANGLES, count, gl::UNSIGNED_BYTE, offset);
    let img = read(c);
    let took = start.elapsed();
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (img, took)
}

/// How long a draw that must return "at once" may take before the test calls it a hang:
/// generous for a loaded 2-core CI machine, well under the minute the unclamped draw took.
const HANG_GUARD: Duration = Duration::from_secs(30);

/// glDrawElements(GL_TRIANGLES, INT_MAX, GL_UNSIGNED_BYTE) from a 24-byte index buffer
/// returns at once (it walked 2^31 indices for a minute before), with the image of the
/// indices the buffer holds; past the end indices read as 0, so the triangle that straddles
/// the end draws as if its missing indices were 0 (as llvmpipe does).
#[test]
fn an_int_max_indexed_draw_is_clamped_to_the_index_buffer() {
    let idx: Vec<u8> = (0..24).map(|i| (i * 5 % 48) as u8).collect();
    let mut c = with_surface(Context::new(W, H));
    let (clamped, took) = draw_indexed(&mut c, &idx, 0, i32::MAX);
    // A hang guard, not a speed check: unclamped, the draw walked 2^31 indices for a
    // minute; clamped it is a few triangles.
    assert!(took < HANG_GUARD, "took {took:?}");
    let (exact, _) = draw_indexed(&mut c, &idx, 0, 24);
    assert_eq!(clamped, exact);
    assert!(
        exact.chunks(4).any(|p| p == [255, 255, 0, 255]),
        "something drew"
    );
    // From offset 4: 20 indices, then a triangle of (a, b, 0).
    let mut c = with_surface(Context::new(W, H));
    let (clamped, took) = draw_indexed(&mut c, &idx[..23], 4, i32::MAX);
    assert!(took < HANG_GUARD, "took {took:?}");
    let mut padded = idx[4..23].to_vec();
    padded.extend_from_slice(&[0; 12]);
    let (exact, _) = draw_indexed(&mut c, &padded, 0, padded.len() as i32);
    assert_eq!(clamped, exact);
}

/// glDrawRangeElements with end < start is GL_INVALID_VALUE (GL 4.5 core §10.4) and draws
/// nothing.
#[test]
fn draw_range_elements_with_end_below_start_is_invalid_value() {
    let mut c = with_surface(Context::new(W, H));
    let p = program(&mut c, PLAIN_FS);
    c.use_program(p);
    vao_with(&mut c, &grid_vertices());
    let ebo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        3,
        Some(&[0, 1, 2]),
        gl::STATIC_DRAW,
    );
    c.draw_range_elements(gl::TRIANGLES, 2, 1, 3, gl::UNSIGNED_BYTE, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.draw_range_elements(gl::TRIANGLES, 0, 2, 3, gl::UNSIGNED_BYTE, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
