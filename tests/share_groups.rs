//! Share groups, context attributes and the version policy through the public API, with the
//! real GLSL front end and JIT: two contexts of one group drawing on two threads at once,
//! bindless handles shared with residency per context, and SOFTGL_GL_VERSION_OVERRIDE.

use softgl::{enums, supported_version, Context, ContextAttribs, ContextError, Profile, Surface};

const W: u32 = 8;
const H: u32 = 8;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const FS: &str = "#version 330\n#extension GL_ARB_bindless_texture : require\n\
                  layout(bindless_sampler) uniform sampler2D tex;\nout vec4 c;\n\
                  void main() { c = texture(tex, vec2(0.5)); }\n";

fn context(share: Option<&Context>) -> Context {
    let mut c = Context::with_attribs(&ContextAttribs::default(), share).expect("1.0 context");
    c.set_default_surface(Some(&Surface::new(W, H, true).expect("surface")));
    c
}

/// A complete 2×2 texture of one colour (GL_NEAREST, no mipmaps needed).
fn texture(c: &mut Context, rgba: [u8; 4]) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(enums::TEXTURE_2D, t);
    c.tex_image_2d(
        enums::TEXTURE_2D,
        0,
        enums::RGBA8 as i32,
        2,
        2,
        0,
        enums::RGBA,
        enums::UNSIGNED_BYTE,
        Some(&rgba.repeat(4)),
    );
    c.tex_parameter_i(
        enums::TEXTURE_2D,
        enums::TEXTURE_MIN_FILTER,
        enums::NEAREST as i32,
    );
    assert_eq!(c.get_error(), enums::NO_ERROR);
    t
}

fn program(c: &mut Context, fs: &str) -> u32 {
    let p = c.create_program();
    for (ty, src) in [(enums::VERTEX_SHADER, VS), (enums::FRAGMENT_SHADER, fs)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_ne!(
            c.get_shaderiv(s, enums::COMPILE_STATUS),
            0,
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_ne!(
        c.get_programiv(p, enums::LINK_STATUS),
        0,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

/// A vertex buffer with one triangle covering the window.
fn fullscreen_vbo(c: &mut Context) -> u32 {
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(enums::ARRAY_BUFFER, vbo);
    let verts: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
    c.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    vbo
}

/// Draws the shared `vbo` through this context's own VAO (VAOs are not shared).
fn draw(c: &mut Context, vbo: u32) {
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c.bind_buffer(enums::ARRAY_BUFFER, vbo);
    c.enable_vertex_attrib_array(0);
    c.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    c.draw_arrays(enums::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), enums::NO_ERROR);
}

fn pixels(c: &mut Context) -> Vec<u8> {
    let px = c.read_pixels(0, 0, W as i32, H as i32, enums::RGBA, enums::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), enums::NO_ERROR);
    px
}

#[test]
fn objects_made_in_one_context_draw_in_another() {
    let mut a = context(None);
    let mut b = context(Some(&a));
    let red = texture(&mut a, [255, 0, 0, 255]);
    let vbo = fullscreen_vbo(&mut a);
    let p = program(&mut a, FS);
    // The handle is the group's: B gets the same one, and makes it resident itself.
    let h = a.get_texture_handle_arb(red);
    assert_eq!(b.get_texture_handle_arb(red), h);
    b.make_texture_handle_resident_arb(h);
    assert!(!a.is_texture_handle_resident_arb(h));
    b.use_program(p);
    let loc = b.get_uniform_location(p, "tex");
    b.uniform_handle_ui64_arb(loc, h);
    draw(&mut b, vbo);
    assert!(pixels(&mut b).chunks(4).all(|px| px == [255, 0, 0, 255]));
    // A did not make it resident: its draw of the same program samples zeros.
    a.use_program(p);
    draw(&mut a, vbo);
    assert!(pixels(&mut a).iter().all(|&x| x == 0));
}

#[test]
fn two_threads_draw_with_two_contexts_of_one_group() {
    let mut a = context(None);
    let b = context(Some(&a));
    let red = texture(&mut a, [255, 0, 0, 255]);
    let green = texture(&mut a, [0, 255, 0, 255]);
    let vbo = fullscreen_vbo(&mut a);
    let run = move |mut c: Context, tex: u32, want: [u8; 4]| {
        move || {
            // Each thread links its own program (compiling into the shared namespace at the
            // same time as the other thread), then draws and checks many times.
            let p = program(&mut c, FS);
            let h = c.get_texture_handle_arb(tex);
            c.make_texture_handle_resident_arb(h);
            c.use_program(p);
            let loc = c.get_uniform_location(p, "tex");
            c.uniform_handle_ui64_arb(loc, h);
            for i in 0..20 {
                c.clear_color(0.0, 0.0, 1.0, 1.0);
                c.clear(enums::COLOR_BUFFER_BIT);
                draw(&mut c, vbo);
                let px = pixels(&mut c);
                assert!(
                    px.chunks(4).all(|p| p == want),
                    "iteration {i}: {:?}",
                    &px[..4]
                );
            }
            (c, h)
        }
    };
    let ta = std::thread::spawn(run(a, red, [255, 0, 0, 255]));
    let tb = std::thread::spawn(run(b, green, [0, 255, 0, 255]));
    let (mut a, ha) = ta.join().expect("thread A");
    let (mut b, hb) = tb.join().expect("thread B");
    assert!(a.is_texture_handle_resident_arb(ha) && !a.is_texture_handle_resident_arb(hb));
    assert!(b.is_texture_handle_resident_arb(hb) && !b.is_texture_handle_resident_arb(ha));
}

#[test]
fn deleting_in_one_context_while_the_other_has_queued_draws() {
    let mut a = context(None);
    let mut b = context(Some(&a));
    let red = texture(&mut a, [255, 0, 0, 255]);
    let vbo = fullscreen_vbo(&mut a);
    let p = program(&mut b, FS);
    let h = b.get_texture_handle_arb(red);
    b.make_texture_handle_resident_arb(h);
    b.use_program(p);
    let loc = b.get_uniform_location(p, "tex");
    b.uniform_handle_ui64_arb(loc, h);
    for _ in 0..8 {
        draw(&mut b, vbo);
    }
    // B's draws are queued (not flushed); A deletes the texture and the buffer and flushes,
    // which frees the texture's descriptor. B's queued draws hold what they need.
    a.delete_textures(&[red]);
    a.delete_buffers(&[vbo]);
    a.finish();
    let px = pixels(&mut b);
    // Each pixel is red (the draw read the descriptor before it went) or zeros (a miss):
    // never anything else, and no crash.
    assert!(px
        .chunks(4)
        .all(|p| p == [255, 0, 0, 255] || p == [0, 0, 0, 0]));
    assert!(!b.is_texture(red) && !b.is_buffer(vbo));
}

/// Everything that reads SOFTGL_GL_VERSION_OVERRIDE is in this one test: the environment is
/// the process's, and tests run on several threads.
#[test]
fn version_policy_and_override() {
    let core45 = ContextAttribs {
        major: 4,
        minor: 5,
        profile: Profile::Core,
        debug: true,
        forward_compatible: true,
        ..ContextAttribs::default()
    };
    std::env::remove_var("SOFTGL_GL_VERSION_OVERRIDE");
    assert_eq!(supported_version(), (1, 0));
    match Context::with_attribs(&core45, None) {
        Err(ContextError::VersionUnsupported {
            major: 4, minor: 5, ..
        }) => {}
        other => panic!("4.5 without the override: {other:?}"),
    }
    let mut honest = context(None);
    let v = honest.get_string(enums::VERSION).unwrap();
    assert!(
        v.starts_with("1.0 softgl") && v.contains("incomplete"),
        "{v}"
    );
    assert_eq!(honest.get_integerv(enums::MAJOR_VERSION), vec![1]);

    std::env::set_var("SOFTGL_GL_VERSION_OVERRIDE", "4.5");
    assert_eq!(supported_version(), (4, 5));
    let mut c = Context::with_attribs(&core45, None).expect("4.5 with the override");
    std::env::remove_var("SOFTGL_GL_VERSION_OVERRIDE");
    // Read once, at creation: the context keeps what it was made with.
    assert_eq!(
        c.get_string(enums::VERSION).unwrap(),
        format!("4.5 (Core Profile) softgl {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        c.get_string(enums::SHADING_LANGUAGE_VERSION).unwrap(),
        "4.50 softgl"
    );
    assert_eq!(c.get_integerv(enums::MAJOR_VERSION), vec![4]);
    assert_eq!(c.get_integerv(enums::MINOR_VERSION), vec![5]);
    assert_eq!(
        c.get_integerv(enums::CONTEXT_PROFILE_MASK),
        vec![enums::CONTEXT_CORE_PROFILE_BIT as i32]
    );
    assert_eq!(
        c.get_integerv(enums::CONTEXT_FLAGS),
        vec![(enums::CONTEXT_FLAG_DEBUG_BIT | enums::CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT) as i32]
    );
    assert!(c.is_enabled(enums::DEBUG_OUTPUT));
    // `#version 450 core` compiles.
    c.set_default_surface(Some(&Surface::new(W, H, false).unwrap()));
    program(
        &mut c,
        "#version 450 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
    );
    // The override is gone again: 4.5 is refused.
    assert!(Context::with_attribs(&core45, None).is_err());
    assert_eq!(honest.get_integerv(enums::MAJOR_VERSION), vec![1]);
}

#[test]
fn churn_in_one_context_while_the_other_draws() {
    // A creates, makes handles for, and deletes textures and buffers as fast as it can while
    // B draws with its own texture: B's pixels stay right, names never collide, no deadlock.
    let mut a = context(None);
    let mut b = context(Some(&a));
    let green = texture(&mut b, [0, 255, 0, 255]);
    let vbo = fullscreen_vbo(&mut b);
    let p = program(&mut b, FS);
    let h = b.get_texture_handle_arb(green);
    b.make_texture_handle_resident_arb(h);
    b.use_program(p);
    let loc = b.get_uniform_location(p, "tex");
    b.uniform_handle_ui64_arb(loc, h);
    let churn = std::thread::spawn(move || {
        for i in 0..200u32 {
            let t = texture(&mut a, [i as u8, 0, 0, 255]);
            let th = a.get_texture_handle_arb(t);
            assert_ne!(th, 0);
            a.make_texture_handle_resident_arb(th);
            let buf = a.gen_buffers(1)[0];
            a.bind_buffer(enums::UNIFORM_BUFFER, buf);
            a.buffer_data(enums::UNIFORM_BUFFER, 16, None, enums::STATIC_DRAW);
            a.delete_textures(&[t]);
            a.delete_buffers(&[buf]);
            assert_eq!(a.get_error(), enums::NO_ERROR);
        }
        a.finish();
        a
    });
    for i in 0..30 {
        draw(&mut b, vbo);
        let px = pixels(&mut b);
        assert!(
            px.chunks(4).all(|q| q == [0, 255, 0, 255]),
            "draw {i}: {:?}",
            &px[..4]
        );
    }
    let _a = churn.join().expect("churn thread");
    assert!(b.is_texture(green) && b.is_buffer(vbo) && b.is_program(p));
}

#[test]
fn buffer_sub_data_while_another_context_reads_a_persistently_mapped_buffer() {
    // A maps a buffer persistently; B's queued draw holds its store; A's glBufferSubData must
    // then copy (B's draw keeps the old contents), and A's mapping must stay valid memory
    // (it keeps pointing at the old store, which lives until A unmaps) — reported as a
    // debug message, never a dangling pointer.
    let mut a = context(None);
    a.enable(enums::DEBUG_OUTPUT); // not a debug context: messages are off by default
    let mut b = context(Some(&a));
    let p = program(&mut a, FS);
    let red = texture(&mut a, [255, 0, 0, 255]);
    let h = a.get_texture_handle_arb(red);
    b.make_texture_handle_resident_arb(h);
    b.use_program(p);
    let loc = b.get_uniform_location(p, "tex");
    b.uniform_handle_ui64_arb(loc, h);
    let verts: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let vbo = a.gen_buffers(1)[0];
    a.bind_buffer(enums::ARRAY_BUFFER, vbo);
    let access = enums::MAP_READ_BIT | enums::MAP_PERSISTENT_BIT | enums::MAP_COHERENT_BIT;
    a.buffer_storage(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        access | enums::DYNAMIC_STORAGE_BIT,
    );
    let ptr = a.map_buffer_range(enums::ARRAY_BUFFER, 0, bytes.len() as isize, access);
    assert!(!ptr.is_null());
    draw(&mut b, vbo); // queued in B: holds the store
    let moved: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 2.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    a.buffer_sub_data(enums::ARRAY_BUFFER, 0, &moved);
    assert_eq!(a.get_error(), enums::NO_ERROR);
    assert!(a
        .debug_messages()
        .iter()
        .any(|m| m.message.contains("no longer aliases")));
    // B's draw completes with the old store, and drops its reference to it.
    assert!(pixels(&mut b).chunks(4).all(|px| px == [255, 0, 0, 255]));
    // SAFETY: `ptr` is A's live persistent mapping of `bytes.len()` bytes: the old store,
    // kept alive by the buffer until unmapped.
    let seen = unsafe { std::slice::from_raw_parts(ptr, bytes.len()) }.to_vec();
    assert_eq!(
        seen, bytes,
        "the mapping still reads the old store, not freed memory"
    );
    assert!(a.unmap_buffer(enums::ARRAY_BUFFER));
    assert_eq!(
        a.get_buffer_sub_data(enums::ARRAY_BUFFER, 0, moved.len() as isize),
        moved
    );
}
