//! Several shader objects of one stage in one program (GLSL 4.60 §2.1, GL 4.5 core §7.3),
//! through the public API with the real GLSL front end and JIT: a unit that only declares
//! a function compiles, the program links its units together and draws, and the link
//! errors GLSL asks for land in the program's info log with LINK_STATUS false.

use softgl::{enums, Context, ContextAttribs, Surface};

const W: u32 = 4;
const H: u32 = 4;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
/// Main: declares `shade`, which the other fragment unit defines; `tint` is in both.
const FS_MAIN: &str = "#version 330\nuniform vec4 tint;\nout vec4 c;\nvec4 shade(float x);\n\
                       void main() { c = shade(0.5) + tint; }\n";
const FS_HELPER: &str = "#version 330\nuniform vec4 tint;\n\
                         vec4 shade(float x) { return vec4(x, tint.x, 0.0, 0.0); }\n";

fn context() -> Context {
    let mut c = Context::with_attribs(&ContextAttribs::default(), None).expect("context");
    c.set_default_surface(Some(&Surface::new(W, H, true).expect("surface")));
    c
}

/// Compiles one shader object; panics when it does not compile.
fn shader(c: &mut Context, ty: u32, src: &str) -> u32 {
    let s = c.create_shader(ty);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, enums::COMPILE_STATUS),
        1,
        "{src}\n{}",
        c.get_shader_info_log(s)
    );
    s
}

/// Links a program of these shaders: Ok(program) or Err(info log).
fn link(c: &mut Context, shaders: &[(u32, &str)]) -> Result<u32, String> {
    let p = c.create_program();
    for &(ty, src) in shaders {
        let s = shader(c, ty, src);
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(c.get_error(), enums::NO_ERROR);
    let log = c.get_program_info_log(p);
    if c.get_programiv(p, enums::LINK_STATUS) == 1 {
        Ok(p)
    } else {
        assert!(!log.is_empty(), "a failed link explains itself");
        Err(log)
    }
}

fn link_fs(c: &mut Context, fs: &[&str]) -> Result<u32, String> {
    let mut all = vec![(enums::VERTEX_SHADER, VS)];
    all.extend(fs.iter().map(|s| (enums::FRAGMENT_SHADER, *s)));
    link(c, &all)
}

fn draw_fullscreen(c: &mut Context) {
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
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c.enable_vertex_attrib_array(0);
    c.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    c.draw_arrays(enums::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), enums::NO_ERROR);
}

#[test]
fn two_fragment_units_link_and_draw() {
    let mut c = context();
    let p = link_fs(&mut c, &[FS_MAIN, FS_HELPER]).unwrap();
    c.use_program(p);
    // One uniform `tint`, shared by both units.
    let loc = c.get_uniform_location(p, "tint");
    assert!(loc >= 0);
    assert_eq!(c.get_programiv(p, enums::ACTIVE_UNIFORMS), 1);
    c.uniform_4f(loc, 0.25, 0.0, 1.0, 1.0);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(enums::COLOR_BUFFER_BIT);
    draw_fullscreen(&mut c);
    let px = c.read_pixels(0, 0, W as i32, H as i32, enums::RGBA, enums::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), enums::NO_ERROR);
    // c = (0.5, tint.x, 0, 0) + tint = (0.75, 0.25, 1, 1): 191.25 and 63.75 of 255.
    let want = [191u8, 64, 255, 255];
    for p in px.chunks(4) {
        assert_eq!(p, want, "{px:?}");
    }
}

#[test]
fn shader_source_after_compile_does_not_change_what_links() {
    let mut c = context();
    let vs = shader(&mut c, enums::VERTEX_SHADER, VS);
    let fs_main = shader(&mut c, enums::FRAGMENT_SHADER, FS_MAIN);
    let fs_helper = shader(&mut c, enums::FRAGMENT_SHADER, FS_HELPER);
    // GL 4.5 core §7.3: linking uses the compiled shader, not newer source.
    c.shader_source(fs_helper, &["this is not GLSL"]);
    let p = c.create_program();
    for s in [vs, fs_main, fs_helper] {
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, enums::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
}

#[test]
fn a_prototype_only_unit_compiles_but_does_not_link_alone() {
    let mut c = context();
    // `shader` asserts COMPILE_STATUS: calling a declared-only function is fine per unit.
    let log = link_fs(&mut c, &[FS_MAIN]).unwrap_err();
    assert!(
        log.contains("function `shade' is called but not defined in any compilation unit"),
        "{log}"
    );
    // An undeclared function is still a compile error.
    let s = c.create_shader(enums::FRAGMENT_SHADER);
    c.shader_source(
        s,
        &["#version 330\nout vec4 c;\nvoid main() { c = shade(0.5); }\n"],
    );
    c.compile_shader(s);
    assert_eq!(c.get_shaderiv(s, enums::COMPILE_STATUS), 0);
    assert!(c
        .get_shader_info_log(s)
        .contains("no function with name `shade'"));
}

#[test]
fn link_errors_across_units() {
    let mut c = context();
    let again = "#version 330\nvec4 shade(float x) { return vec4(x); }\n";
    let log = link_fs(&mut c, &[FS_MAIN, FS_HELPER, again]).unwrap_err();
    assert!(log.contains("function `shade' redefined"), "{log}");

    let no_main = "#version 330\nvec4 shade(float x) { return vec4(x); }\n";
    let log = link_fs(&mut c, &[no_main]).unwrap_err();
    assert!(log.contains("main function not defined"), "{log}");

    let main2 = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    let log = link_fs(&mut c, &[FS_MAIN, FS_HELPER, main2]).unwrap_err();
    assert!(log.contains("function `main' redefined"), "{log}");

    let float_tint = "#version 330\nuniform float tint;\n\
                      vec4 shade(float x) { return vec4(x * tint); }\n";
    let log = link_fs(&mut c, &[FS_MAIN, float_tint]).unwrap_err();
    assert!(
        log.contains("global `tint' has type vec4 in one compilation unit and float in another"),
        "{log}"
    );

    // Two vertex units without main in either.
    let vs_helper = "#version 330\nvec4 place(vec2 p) { return vec4(p, 0.0, 1.0); }\n";
    let log = link(
        &mut c,
        &[
            (enums::VERTEX_SHADER, vs_helper),
            (
                enums::VERTEX_SHADER,
                vs_helper.replace("place", "other").as_str(),
            ),
            (enums::FRAGMENT_SHADER, FS_MAIN),
            (enums::FRAGMENT_SHADER, FS_HELPER),
        ],
    )
    .unwrap_err();
    assert!(
        log.contains("vertex shader") && log.contains("main function not defined"),
        "{log}"
    );
}

#[test]
fn global_bindless_sampler_and_bound_sampler_in_two_units() {
    // piglit spec@arb_bindless_texture@linker@global_bindless_sampler_and_bound_sampler:
    // two fragment units, no vertex shader, and a link error for the qualifiers.
    let a = "#version 330\n#extension GL_ARB_bindless_texture: require\n\
             layout(bindless_sampler) uniform;\nvoid foo();\nvoid main() { foo(); }\n";
    let b = "#version 330\n#extension GL_ARB_bindless_texture: require\n\
             layout(bound_sampler) uniform;\nvoid foo() {}\n";
    let mut c = context();
    let both = [(enums::FRAGMENT_SHADER, a), (enums::FRAGMENT_SHADER, b)];
    let log = link(&mut c, &both).unwrap_err();
    assert!(log.contains("layout(bindless_sampler)"), "{log}");
    // With a vertex shader too: still that error.
    let log = link_fs(&mut c, &[a, b]).unwrap_err();
    assert!(log.contains("layout(bound_sampler)"), "{log}");
    // The same units with one qualifier link.
    let b_bindless = b.replace("bound_sampler", "bindless_sampler");
    link_fs(&mut c, &[a, &b_bindless]).unwrap();
}

#[test]
fn vertex_units_share_an_input_and_a_varying() {
    // Both vertex units declare the attribute and the varying; main's unit only calls.
    let vs_main = "#version 330\nlayout(location = 0) in vec2 pos;\nout float shade;\n\
                   vec4 place();\nvoid main() { gl_Position = place(); }\n";
    let vs_helper = "#version 330\nlayout(location = 0) in vec2 pos;\nout float shade;\n\
                     vec4 place() { shade = 0.2; return vec4(pos, 0.0, 1.0); }\n";
    let fs_main = "#version 330\nin float shade;\nout vec4 c;\nfloat twice(float x);\n\
                   void main() { c = vec4(shade, twice(shade), 0.0, 1.0); }\n";
    let fs_helper = "#version 330\nfloat twice(float x) { return 2.0 * x; }\n";
    let mut c = context();
    let p = link(
        &mut c,
        &[
            (enums::VERTEX_SHADER, vs_main),
            (enums::VERTEX_SHADER, vs_helper),
            (enums::FRAGMENT_SHADER, fs_main),
            (enums::FRAGMENT_SHADER, fs_helper),
        ],
    )
    .unwrap();
    assert_eq!(c.get_attrib_location(p, "pos"), 0);
    assert_eq!(c.get_programiv(p, enums::ACTIVE_ATTRIBUTES), 1);
    c.use_program(p);
    draw_fullscreen(&mut c);
    let px = c.read_pixels(0, 0, W as i32, H as i32, enums::RGBA, enums::UNSIGNED_BYTE);
    // (0.2, 0.4, 0, 1) of 255: 51 and 102.
    for p in px.chunks(4) {
        assert_eq!(p, [51, 102, 0, 255], "{px:?}");
    }
}
