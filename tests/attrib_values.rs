//! Current generic attribute values (GL 4.5 core §10.2) at the API level: each setter
//! family stored in its own type and read back exactly by the CURRENT_VERTEX_ATTRIB
//! getters, packed values decoded, the errors named, and a disabled integer attribute
//! drawn from its current value. Also the small state commands of §7 and §21.5 (hints,
//! precision formats, binaries, program parameters, glGetUniformdv).

mod common;

use softgl::{enums as gl, Context};

#[test]
fn current_values_keep_their_type() {
    let mut c = Context::with_threads(4, 4, 1);
    let cur = gl::CURRENT_VERTEX_ATTRIB;
    assert_eq!(
        c.get_vertex_attribfv(7, cur),
        vec![0.0, 0.0, 0.0, 1.0],
        "initial"
    );
    c.vertex_attrib_i4i(2, -1, 2, -3, i32::MIN);
    assert_eq!(c.get_vertex_attrib_iiv(2, cur), vec![-1, 2, -3, i32::MIN]);
    c.vertex_attrib_i4ui(3, 1, u32::MAX, 3, 4);
    assert_eq!(c.get_vertex_attrib_iuiv(3, cur), vec![1, u32::MAX, 3, 4]);
    c.vertex_attrib_l4d(4, 1.5, -2.25, 1e300, 0.1);
    assert_eq!(
        c.get_vertex_attrib_ldv(4, cur),
        vec![1.5, -2.25, 1e300, 0.1],
        "doubles stay doubles"
    );
    assert_eq!(c.get_vertex_attribdv(4, cur), vec![1.5, -2.25, 1e300, 0.1]);
    c.vertex_attrib_3f(5, 0.1, 0.2, 0.3);
    assert_eq!(
        c.get_vertex_attribdv(5, cur),
        vec![0.1f32 as f64, 0.2f32 as f64, 0.3f32 as f64, 1.0]
    );
    // INT_2_10_10_10_REV, normalized: x = −512 → −1, y = 511 → 1, z = 0, w = 1 → 1.
    let word = 0x200 | (0x1FF << 10) | (1 << 30);
    c.vertex_attrib_p(6, 4, gl::INT_2_10_10_10_REV, true, word);
    assert_eq!(c.get_vertex_attribfv(6, cur), vec![-1.0, 1.0, 0.0, 1.0]);
    // Two components given: z and w take 0 and 1; unsigned, not normalized.
    c.vertex_attrib_p(
        6,
        2,
        gl::UNSIGNED_INT_2_10_10_10_REV,
        false,
        5 | (7 << 10) | (3 << 20),
    );
    assert_eq!(c.get_vertex_attribfv(6, cur), vec![5.0, 7.0, 0.0, 1.0]);
    c.vertex_attrib_p(6, 4, gl::UNSIGNED_BYTE, false, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "not a packed type");
    c.vertex_attrib_i4i(16, 0, 0, 0, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_vertex_attrib_iiv(16, cur);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_vertex_attrib_pointerv(0, gl::CURRENT_VERTEX_ATTRIB);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn a_disabled_integer_attribute_reads_its_current_value() {
    let vs = "#version 330 core\n\
        layout(location = 0) in vec2 pos;\n\
        layout(location = 1) in ivec4 v;\n\
        flat out ivec4 f;\n\
        void main() { gl_Position = vec4(pos, 0.0, 1.0); f = v; }\n";
    let fs = "#version 330 core\nflat in ivec4 f;\nout vec4 o;\n\
        void main() { o = vec4(f) / 255.0; }\n";
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let p = common::program(&mut c, vs, fs);
        c.use_program(p);
        let quad: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let b = c.create_buffers(1)[0];
        c.named_buffer_data(b, quad.len() as isize, Some(&quad[..]), gl::STATIC_DRAW);
        c.bind_vertex_buffer(0, b, 0, 8);
        c.vertex_attrib_format(0, 2, gl::FLOAT, false, 0);
        c.enable_vertex_attrib_array(0);
        c.vertex_attrib_i4i(1, 10, 20, 30, 40);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(img, [10, 20, 30, 40].repeat(16));
        images.push(img);
    }
    assert_eq!(images[0], images[1]);
}

#[test]
fn hints_precision_binaries_and_program_parameters() {
    let mut c = common::context(4, 4, 1);
    for t in [
        gl::LINE_SMOOTH_HINT,
        gl::POLYGON_SMOOTH_HINT,
        gl::TEXTURE_COMPRESSION_HINT,
        gl::FRAGMENT_SHADER_DERIVATIVE_HINT,
        gl::GENERATE_MIPMAP_HINT,
    ] {
        assert_eq!(c.get_integerv(t), vec![gl::DONT_CARE as i32]);
        c.hint(t, gl::NICEST);
        assert_eq!(c.get_integerv(t), vec![gl::NICEST as i32]);
    }
    c.hint(gl::LINE_SMOOTH_HINT, gl::LINE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "mode");
    c.hint(gl::BLEND, gl::FASTEST);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "target");
    assert_eq!(
        c.get_integerv(gl::LINE_SMOOTH_HINT),
        vec![gl::NICEST as i32]
    );
    assert_eq!(
        c.get_shader_precision_format(gl::FRAGMENT_SHADER, gl::MEDIUM_FLOAT),
        ([127, 127], 23)
    );
    assert_eq!(
        c.get_shader_precision_format(gl::VERTEX_SHADER, gl::LOW_INT),
        ([31, 30], 0)
    );
    c.get_shader_precision_format(gl::GEOMETRY_SHADER, gl::LOW_INT);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.release_shader_compiler();
    assert_eq!(c.get_integerv(gl::NUM_PROGRAM_BINARY_FORMATS), vec![0]);
    assert_eq!(c.get_integerv(gl::NUM_SHADER_BINARY_FORMATS), vec![0]);
    let vs = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
    let fs = "#version 330 core\nuniform vec3 u;\nout vec4 o;\nvoid main() { o = vec4(u, 1.0); }\n";
    let p = common::program(&mut c, vs, fs);
    let s = c.create_shader(gl::VERTEX_SHADER);
    c.shader_binary(&[s], 0x1234, &[]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "no shader binary formats");
    c.program_binary(p, 0x1234, &[1, 2, 3]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "no program binary formats");
    assert_eq!(c.get_program_binary(p, 64), 0);
    assert_eq!(c.get_programiv(p, gl::PROGRAM_BINARY_LENGTH), 0);
    assert_eq!(c.get_programiv(p, gl::PROGRAM_SEPARABLE), 0);
    c.program_parameteri(p, gl::PROGRAM_SEPARABLE, 1);
    c.program_parameteri(p, gl::PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
    assert_eq!(c.get_programiv(p, gl::PROGRAM_SEPARABLE), 1);
    assert_eq!(c.get_programiv(p, gl::PROGRAM_BINARY_RETRIEVABLE_HINT), 1);
    c.program_parameteri(p, gl::PROGRAM_SEPARABLE, 2);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.program_parameteri(p, gl::LINK_STATUS, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.program_parameteri(s, gl::PROGRAM_SEPARABLE, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "a shader name");
    c.use_program(p);
    let loc = c.get_uniform_location(p, "u");
    c.uniform_3f(loc, 0.1, -2.0, 3.5);
    assert_eq!(c.get_uniformdv(p, loc), vec![0.1f32 as f64, -2.0, 3.5]);
    assert_eq!(c.getn_uniformdv(p, loc, 24), vec![0.1f32 as f64, -2.0, 3.5]);
    c.getn_uniformdv(p, loc, 23);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "24 bytes needed");
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
