//! ARB_vertex_attrib_binding at the API level (GL 4.5 core §10.3): attribute formats read
//! through vertex buffer binding points (two attributes of one binding at relative offsets,
//! a divisor per binding, a binding offset), the same image from glVertexAttribPointer,
//! from the DSA forms and from 1 and 2 raster threads; the binding state queries, their
//! initial values and limits, and every error the commands name.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 8;
const H: u32 = 8;

const VS: &str = "#version 330 core\n\
    layout(location = 0) in vec2 pos;\n\
    layout(location = 1) in vec4 col;\n\
    layout(location = 2) in vec2 off;\n\
    out vec4 v_col;\n\
    void main() { gl_Position = vec4(pos + off, 0.0, 1.0); v_col = col; }\n";
const FS: &str = "#version 330 core\nin vec4 v_col;\nout vec4 o;\nvoid main() { o = v_col; }\n";

/// The NDC coordinate of the centre of pixel `p` on an 8-pixel axis.
fn ndc(p: u32) -> f32 {
    (p as f32 + 0.5) * 2.0 / W as f32 - 1.0
}

/// Two vertices of 12 bytes (vec2 position, 4 unorm bytes of colour at byte 8), after
/// `lead` bytes of padding.
fn vertex_bytes(lead: usize) -> Vec<u8> {
    let mut b = vec![0xEE; lead];
    for (px, col) in [(1u32, [255u8, 0, 0, 255]), (2, [0, 255, 0, 255])] {
        b.extend(ndc(px).to_le_bytes());
        b.extend(ndc(1).to_le_bytes());
        b.extend(col);
    }
    b
}

/// Per-instance offsets: instance 0 stays, instance 1 moves up 4 pixels (1.0 in NDC).
fn instance_bytes() -> Vec<u8> {
    [0.0f32, 0.0, 0.0, 1.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect()
}

/// How a test sets up the vertex arrays.
#[derive(Copy, Clone, Debug)]
enum Setup {
    Binding,
    Pointer,
    Dsa,
}

fn buffer(c: &mut Context, data: &[u8]) -> u32 {
    let b = c.create_buffers(1)[0];
    c.named_buffer_data(b, data.len() as isize, Some(data), gl::STATIC_DRAW);
    b
}

/// Draws the two points twice (2 instances) and returns the image.
fn render(setup: Setup, threads: usize) -> Vec<u8> {
    let mut c = common::context(W, H, threads);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    match setup {
        Setup::Binding => {
            let verts = buffer(&mut c, &vertex_bytes(16));
            let inst = buffer(&mut c, &instance_bytes());
            c.vertex_attrib_format(0, 2, gl::FLOAT, false, 0);
            c.vertex_attrib_format(1, 4, gl::UNSIGNED_BYTE, true, 8);
            c.vertex_attrib_binding(1, 0);
            c.bind_vertex_buffer(0, verts, 16, 12);
            c.vertex_attrib_format(2, 2, gl::FLOAT, false, 0);
            c.vertex_attrib_binding(2, 3);
            c.bind_vertex_buffer(3, inst, 0, 8);
            c.vertex_binding_divisor(3, 1);
            for i in 0..3 {
                c.enable_vertex_attrib_array(i);
            }
        }
        Setup::Pointer => {
            let verts = buffer(&mut c, &vertex_bytes(16));
            let inst = buffer(&mut c, &instance_bytes());
            c.bind_buffer(gl::ARRAY_BUFFER, verts);
            c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 12, 16);
            c.vertex_attrib_pointer(1, 4, gl::UNSIGNED_BYTE, true, 12, 24);
            c.bind_buffer(gl::ARRAY_BUFFER, inst);
            c.vertex_attrib_pointer(2, 2, gl::FLOAT, false, 0, 0);
            c.vertex_attrib_divisor(2, 1);
            for i in 0..3 {
                c.enable_vertex_attrib_array(i);
            }
        }
        Setup::Dsa => {
            let verts = buffer(&mut c, &vertex_bytes(0));
            let inst = buffer(&mut c, &instance_bytes());
            let vao = c.create_vertex_arrays(1)[0];
            c.vertex_array_attrib_format(vao, 0, 2, gl::FLOAT, false, 0);
            c.vertex_array_attrib_format(vao, 1, 4, gl::UNSIGNED_BYTE, true, 8);
            c.vertex_array_attrib_binding(vao, 1, 0);
            c.vertex_array_attrib_format(vao, 2, 2, gl::FLOAT, false, 0);
            c.vertex_array_attrib_binding(vao, 2, 5);
            c.vertex_array_vertex_buffers(vao, 4, 2, Some(&[0, inst][..]), &[0, 0], &[16, 8]);
            c.vertex_array_vertex_buffer(vao, 0, verts, 0, 12);
            c.vertex_array_binding_divisor(vao, 5, 1);
            for i in 0..3 {
                c.enable_vertex_array_attrib(vao, i);
            }
            c.bind_vertex_array(vao);
        }
    }
    assert_eq!(c.get_error(), gl::NO_ERROR, "{setup:?}");
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.draw_arrays_instanced(gl::POINTS, 0, 2, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{setup:?}");
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn attributes_read_through_binding_points_draw_exactly() {
    let img = render(Setup::Binding, 1);
    let at = |x: u32, y: u32| -> [u8; 4] {
        let o = ((y * W + x) * 4) as usize;
        img[o..o + 4].try_into().unwrap()
    };
    let mut lit = Vec::new();
    for y in 0..H {
        for x in 0..W {
            if at(x, y) != [0; 4] {
                lit.push((x, y, at(x, y)));
            }
        }
    }
    let red = [255, 0, 0, 255];
    let green = [0, 255, 0, 255];
    assert_eq!(
        lit,
        vec![(1, 1, red), (2, 1, green), (1, 5, red), (2, 5, green)],
        "two attributes of binding 0 at relative offsets 0 and 8 (binding offset 16), \
         the per-instance offset of binding 3 with divisor 1"
    );
    assert_eq!(render(Setup::Binding, 2), img, "1 vs 2 threads");
    assert_eq!(render(Setup::Pointer, 1), img, "glVertexAttribPointer");
    assert_eq!(render(Setup::Dsa, 2), img, "DSA forms on a created VAO");
}

#[test]
fn pointer_commands_are_format_binding_and_buffer() {
    let mut c = common::context(4, 4, 1);
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, b);
    // Initial state (GL 4.5 core tables 23.3, 23.4).
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, 3), vec![16]);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_OFFSET, 3), vec![0]);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 3), vec![0]);
    assert_eq!(c.get_vertex_attribiv(5, gl::VERTEX_ATTRIB_BINDING), 5);
    assert_eq!(
        c.get_vertex_attribiv(5, gl::VERTEX_ATTRIB_RELATIVE_OFFSET),
        0
    );
    // §10.3.2: stride 0 is the packed size for the binding, 0 for the attribute.
    c.vertex_attrib_pointer(3, 3, gl::SHORT, false, 0, 24);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, 3), vec![6]);
    assert_eq!(c.get_integer64i_v(gl::VERTEX_BINDING_OFFSET, 3), vec![24]);
    assert_eq!(
        c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 3),
        vec![b as i32]
    );
    assert_eq!(c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_STRIDE), 0);
    assert_eq!(
        c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING),
        b as i32
    );
    c.vertex_attrib_divisor(3, 2);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_DIVISOR, 3), vec![2]);
    assert_eq!(c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_DIVISOR), 2);
    // Pointing attribute 3 at binding 7: its buffer and divisor are binding 7's.
    c.vertex_attrib_binding(3, 7);
    c.vertex_attrib_format(3, 2, gl::FLOAT, false, 2047);
    assert_eq!(c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_BINDING), 7);
    assert_eq!(c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_DIVISOR), 0);
    assert_eq!(
        c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING),
        0
    );
    assert_eq!(
        c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_RELATIVE_OFFSET),
        2047
    );
    assert_eq!(c.get_vertex_attribiv(3, gl::VERTEX_ATTRIB_ARRAY_SIZE), 2);
    assert_eq!(
        c.get_vertex_attrib_pointerv(3, gl::VERTEX_ATTRIB_ARRAY_POINTER),
        2047
    );
    assert_eq!(c.get_integerv(gl::MAX_VERTEX_ATTRIB_BINDINGS), vec![16]);
    assert_eq!(
        c.get_integerv(gl::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET),
        vec![2047]
    );
    assert_eq!(c.get_integerv(gl::MAX_VERTEX_ATTRIB_STRIDE), vec![2048]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// One GL call of an error case.
type Call = Box<dyn Fn(&mut Context)>;

#[test]
fn binding_commands_give_the_spec_errors() {
    let mut c = common::context(4, 4, 1);
    let b = c.gen_buffers(1)[0];
    let cases: Vec<(&str, Call, u32)> = vec![
        (
            "binding 16",
            Box::new(move |c: &mut Context| c.bind_vertex_buffer(16, b, 0, 4)),
            gl::INVALID_VALUE,
        ),
        (
            "stride 2049",
            Box::new(move |c: &mut Context| c.bind_vertex_buffer(0, b, 0, 2049)),
            gl::INVALID_VALUE,
        ),
        (
            "stride -1",
            Box::new(move |c: &mut Context| c.bind_vertex_buffer(0, b, 0, -1)),
            gl::INVALID_VALUE,
        ),
        (
            "offset -4",
            Box::new(move |c: &mut Context| c.bind_vertex_buffer(0, b, -4, 4)),
            gl::INVALID_VALUE,
        ),
        (
            "not a buffer",
            Box::new(|c: &mut Context| c.bind_vertex_buffer(0, 9999, 0, 4)),
            gl::INVALID_OPERATION,
        ),
        (
            "relative 2048",
            Box::new(|c: &mut Context| c.vertex_attrib_format(0, 4, gl::FLOAT, false, 2048)),
            gl::INVALID_VALUE,
        ),
        (
            "size 5",
            Box::new(|c: &mut Context| c.vertex_attrib_format(0, 5, gl::FLOAT, false, 0)),
            gl::INVALID_VALUE,
        ),
        (
            "bad type",
            Box::new(|c: &mut Context| c.vertex_attrib_format(0, 4, gl::RGBA, false, 0)),
            gl::INVALID_ENUM,
        ),
        (
            "float I format",
            Box::new(|c: &mut Context| c.vertex_attrib_i_format(0, 4, gl::FLOAT, 0)),
            gl::INVALID_ENUM,
        ),
        (
            "attrib 16",
            Box::new(|c: &mut Context| c.vertex_attrib_format(16, 4, gl::FLOAT, false, 0)),
            gl::INVALID_VALUE,
        ),
        (
            "attrib binding 16",
            Box::new(|c: &mut Context| c.vertex_attrib_binding(0, 16)),
            gl::INVALID_VALUE,
        ),
        (
            "divisor binding 16",
            Box::new(|c: &mut Context| c.vertex_binding_divisor(16, 1)),
            gl::INVALID_VALUE,
        ),
        (
            "first + count > 16",
            Box::new(move |c: &mut Context| {
                c.bind_vertex_buffers(14, 3, Some(&[b, b, b][..]), &[0; 3], &[4; 3])
            }),
            gl::INVALID_OPERATION,
        ),
        (
            "DSA on a non-VAO",
            Box::new(|c: &mut Context| c.vertex_array_attrib_binding(777, 0, 0)),
            gl::INVALID_OPERATION,
        ),
        (
            "indexed BUFFER_BINDING",
            Box::new(|c: &mut Context| {
                let v = c.create_vertex_arrays(1)[0];
                c.get_vertex_array_indexediv(v, 0, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING);
            }),
            gl::INVALID_ENUM,
        ),
        (
            "indexed64 binding 16",
            Box::new(|c: &mut Context| {
                let v = c.create_vertex_arrays(1)[0];
                c.get_vertex_array_indexed64iv(v, 16, gl::VERTEX_BINDING_OFFSET);
            }),
            gl::INVALID_VALUE,
        ),
        (
            "VAO parameter",
            Box::new(|c: &mut Context| {
                let v = c.create_vertex_arrays(1)[0];
                c.get_vertex_arrayiv(v, gl::ARRAY_BUFFER_BINDING);
            }),
            gl::INVALID_ENUM,
        ),
        (
            "binding index past 16",
            Box::new(|c: &mut Context| {
                c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, 16);
            }),
            gl::INVALID_VALUE,
        ),
    ];
    for (what, f, want) in &cases {
        f(&mut c);
        assert_eq!(c.get_error(), *want, "{what}");
        assert_eq!(c.get_error(), gl::NO_ERROR, "{what}: one error");
    }
    // A generated but never bound VAO name is not a VAO yet (§10.3.1).
    let gen = c.gen_vertex_arrays(1)[0];
    c.enable_vertex_array_attrib(gen, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // With no VAO bound (core profile) the non-DSA forms refuse.
    c.bind_vertex_array(0);
    c.vertex_attrib_binding(0, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.bind_vertex_buffer(0, b, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn multi_bind_sets_each_binding_on_its_own() {
    let mut c = common::context(4, 4, 1);
    let b = c.create_buffers(2);
    // Entry 1 names no buffer: INVALID_OPERATION, entries 0 and 2 still bound.
    c.bind_vertex_buffers(
        0,
        3,
        Some(&[b[0], 9999, b[1]][..]),
        &[4, 8, 12],
        &[16, 20, 24],
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_eq!(
        c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 0),
        vec![b[0] as i32]
    );
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_OFFSET, 0), vec![4]);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 1), vec![0]);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, 1), vec![16]);
    assert_eq!(
        c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 2),
        vec![b[1] as i32]
    );
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, 2), vec![24]);
    // A negative stride refuses its entry only.
    c.vertex_binding_divisor(2, 3);
    c.bind_vertex_buffers(1, 2, Some(&[b[0], b[0]][..]), &[0, 32], &[-1, 8]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 1), vec![0]);
    assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_OFFSET, 2), vec![32]);
    assert_eq!(
        c.get_integeri_v(gl::VERTEX_BINDING_DIVISOR, 2),
        vec![3],
        "divisor kept"
    );
    // No buffers: the bindings go back to buffer 0, offset 0, stride 16.
    c.bind_vertex_buffers(0, 3, None, &[], &[]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for i in 0..3 {
        assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_BUFFER, i), vec![0]);
        assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_OFFSET, i), vec![0]);
        assert_eq!(c.get_integeri_v(gl::VERTEX_BINDING_STRIDE, i), vec![16]);
    }
    // The DSA getters and the element buffer.
    let vao = c.create_vertex_arrays(1)[0];
    c.vertex_array_vertex_buffer(vao, 9, b[1], 40, 8);
    c.vertex_array_element_buffer(vao, b[0]);
    c.vertex_array_attrib_i_format(vao, 4, 3, gl::UNSIGNED_SHORT, 6);
    c.enable_vertex_array_attrib(vao, 4);
    assert_eq!(
        c.get_vertex_array_indexed64iv(vao, 9, gl::VERTEX_BINDING_OFFSET),
        40
    );
    assert_eq!(
        c.get_vertex_arrayiv(vao, gl::ELEMENT_ARRAY_BUFFER_BINDING),
        b[0] as i32
    );
    let q = |c: &mut Context, p| c.get_vertex_array_indexediv(vao, 4, p);
    assert_eq!(q(&mut c, gl::VERTEX_ATTRIB_ARRAY_ENABLED), 1);
    assert_eq!(q(&mut c, gl::VERTEX_ATTRIB_ARRAY_INTEGER), 1);
    assert_eq!(q(&mut c, gl::VERTEX_ATTRIB_ARRAY_SIZE), 3);
    assert_eq!(
        q(&mut c, gl::VERTEX_ATTRIB_ARRAY_TYPE),
        gl::UNSIGNED_SHORT as i32
    );
    assert_eq!(q(&mut c, gl::VERTEX_ATTRIB_RELATIVE_OFFSET), 6);
    c.vertex_array_element_buffer(vao, 9999);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_eq!(
        c.get_vertex_arrayiv(vao, gl::ELEMENT_ARRAY_BUFFER_BINDING),
        b[0] as i32
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
