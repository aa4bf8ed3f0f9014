//! Buffer commands of GL 4.5 core chapter 6 beyond data and mapping, at the API level:
//! copies (§6.6, overlap rules), clears (§6.5, table 8.16 formats converted as pixel
//! uploads are), the named (DSA) forms, the 64-bit and pointer queries and multi-bind of
//! indexed binding points (§6.1.1), each with exact values and the errors the spec names.

use softgl::{enums as gl, Context};

fn ctx() -> Context {
    Context::with_threads(4, 4, 1)
}

fn filled(c: &mut Context, bytes: &[u8]) -> u32 {
    let b = c.create_buffers(1)[0];
    c.named_buffer_data(b, bytes.len() as isize, Some(bytes), gl::DYNAMIC_DRAW);
    b
}

fn contents(c: &mut Context, b: u32) -> Vec<u8> {
    let n = c.get_named_buffer_parameteri64v(b, gl::BUFFER_SIZE);
    c.get_named_buffer_sub_data(b, 0, n as isize)
}

#[test]
fn copies_move_bytes_and_refuse_overlap() {
    let mut c = ctx();
    let src: Vec<u8> = (0..16).collect();
    let a = filled(&mut c, &src);
    let b = filled(&mut c, &[0; 16]);
    c.bind_buffer(gl::COPY_READ_BUFFER, a);
    c.bind_buffer(gl::COPY_WRITE_BUFFER, b);
    c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 4, 8, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        contents(&mut c, b),
        [0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 7, 0, 0, 0, 0]
    );
    // Within one buffer: disjoint ranges copy, overlapping ones are INVALID_VALUE.
    c.copy_named_buffer_sub_data(a, a, 0, 12, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(&contents(&mut c, a)[12..], &[0, 1, 2, 3]);
    c.copy_named_buffer_sub_data(a, a, 0, 3, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "overlap");
    c.copy_named_buffer_sub_data(a, a, 4, 0, 4);
    assert_eq!(
        c.get_error(),
        gl::NO_ERROR,
        "touching ranges do not overlap"
    );
    c.copy_named_buffer_sub_data(a, b, 13, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "read range past the end");
    c.copy_named_buffer_sub_data(a, b, 0, 0, -1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "negative size");
    c.copy_named_buffer_sub_data(a, 9999, 0, 0, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a buffer");
    c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::PIXEL_PACK_BUFFER, 0, 0, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "nothing bound");
    c.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::TEXTURE_2D, 0, 0, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert!(!c.map_named_buffer(b, gl::READ_ONLY).is_null());
    c.copy_named_buffer_sub_data(a, b, 1, 0, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "destination mapped");
    assert!(c.unmap_named_buffer(b));
    assert_eq!(contents(&mut c, b)[0], 0, "failed copies write nothing");
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

#[test]
fn clears_convert_one_element_to_the_internal_format() {
    let mut c = ctx();
    let b = filled(&mut c, &[0xAA; 16]);
    let clear = |c: &mut Context, internal, format, ty, data: &[u8]| {
        c.clear_named_buffer_data(b, internal, format, ty, Some(data));
        assert_eq!(c.get_error(), gl::NO_ERROR, "{internal:#x}");
        contents(c, b)
    };
    assert_eq!(
        clear(&mut c, gl::R8, gl::RED, gl::UNSIGNED_BYTE, &[0x7F]),
        vec![0x7F; 16]
    );
    let rgba = clear(
        &mut c,
        gl::RGBA8,
        gl::RGBA,
        gl::FLOAT,
        &f32s(&[1.0, 0.5, 0.0, 0.25]),
    );
    assert_eq!(rgba, [255, 128, 0, 64].repeat(4), "unorm rounds to nearest");
    let half = clear(&mut c, gl::R16F, gl::RED, gl::FLOAT, &f32s(&[1.5]));
    assert_eq!(half, [0x00, 0x3E].repeat(8));
    let r16 = clear(
        &mut c,
        gl::R16,
        gl::RED,
        gl::UNSIGNED_SHORT,
        &0x1234u16.to_le_bytes(),
    );
    assert_eq!(r16, [0x34, 0x12].repeat(8));
    let ints: Vec<u8> = [-5i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(
        clear(&mut c, gl::RG32I, gl::RG_INTEGER, gl::INT, &ints),
        ints.repeat(2)
    );
    let wide: Vec<u8> = [300u32, 1, 2, 3]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let small = clear(
        &mut c,
        gl::RGBA8UI,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_INT,
        &wide,
    );
    assert_eq!(
        small,
        [255, 1, 2, 3].repeat(4),
        "integers clamp to the component width"
    );
    let rgb = f32s(&[1.0, 2.0, 3.0]);
    c.clear_named_buffer_data(b, gl::RGB32F, gl::RGB, gl::FLOAT, Some(&rgb[..]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_VALUE,
        "16 bytes are not whole 12-byte elements"
    );
    c.clear_named_buffer_sub_data(b, gl::RGB32F, 0, 12, gl::RGB, gl::FLOAT, Some(&rgb[..]));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(&contents(&mut c, b)[..12], &rgb[..]);
    // Sub-range (words 1 and 2) and zeros from no data.
    c.clear_named_buffer_data(b, gl::R32UI, gl::RED_INTEGER, gl::UNSIGNED_INT, None);
    c.bind_buffer(gl::ARRAY_BUFFER, b);
    c.clear_buffer_sub_data(
        gl::ARRAY_BUFFER,
        gl::R32UI,
        4,
        8,
        gl::RED_INTEGER,
        gl::UNSIGNED_INT,
        Some(&9u32.to_le_bytes()[..]),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let words: Vec<u32> = contents(&mut c, b)
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(words, [0, 9, 9, 0]);
}

#[test]
fn clear_errors() {
    let mut c = ctx();
    let b = filled(&mut c, &[1; 16]);
    let one = Some(&[0u8; 16][..]);
    let cases: [(&str, u32, isize, isize, u32, u32, u32); 6] = [
        (
            "RGB8 is not in table 8.16",
            gl::RGB8,
            0,
            16,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            gl::INVALID_ENUM,
        ),
        (
            "offset not a multiple",
            gl::R32F,
            2,
            4,
            gl::RED,
            gl::FLOAT,
            gl::INVALID_VALUE,
        ),
        (
            "size not a multiple",
            gl::RG16,
            0,
            6,
            gl::RG,
            gl::UNSIGNED_SHORT,
            gl::INVALID_VALUE,
        ),
        (
            "past the end",
            gl::R8,
            8,
            9,
            gl::RED,
            gl::UNSIGNED_BYTE,
            gl::INVALID_VALUE,
        ),
        (
            "negative offset",
            gl::R8,
            -1,
            1,
            gl::RED,
            gl::UNSIGNED_BYTE,
            gl::INVALID_VALUE,
        ),
        (
            "bad format",
            gl::R8,
            0,
            1,
            gl::TEXTURE_2D,
            gl::UNSIGNED_BYTE,
            gl::INVALID_VALUE,
        ),
    ];
    for (what, internal, o, s, f, t, want) in cases {
        c.clear_named_buffer_sub_data(b, internal, o, s, f, t, one);
        assert_eq!(c.get_error(), want, "{what}");
    }
    c.clear_named_buffer_data(9999, gl::R8, gl::RED, gl::UNSIGNED_BYTE, one);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a buffer");
    assert!(!c
        .map_named_buffer_range(b, 0, 4, gl::MAP_READ_BIT)
        .is_null());
    c.clear_named_buffer_data(b, gl::R8, gl::RED, gl::UNSIGNED_BYTE, one);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "mapped");
    c.clear_named_buffer_sub_data(b, gl::R8, 3, 2, gl::RED, gl::UNSIGNED_BYTE, one);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "overlaps the mapped bytes 0..4"
    );
    assert!(c.unmap_named_buffer(b));
    assert_eq!(
        contents(&mut c, b),
        vec![1; 16],
        "failed clears write nothing"
    );
    // Only the mapped range is refused (GL 4.5 core §6.5): bytes 4..16 clear while 0..4
    // stay mapped.
    assert!(!c
        .map_named_buffer_range(b, 0, 4, gl::MAP_READ_BIT)
        .is_null());
    c.clear_named_buffer_sub_data(b, gl::R8, 4, 12, gl::RED, gl::UNSIGNED_BYTE, one);
    assert_eq!(c.get_error(), gl::NO_ERROR, "outside the mapped range");
    assert!(c.unmap_named_buffer(b));
    let mut want = vec![1; 4];
    want.extend([0; 12]);
    assert_eq!(contents(&mut c, b), want);
    // No buffer bound to the target: INVALID_VALUE (ARB_clear_buffer_object).
    c.bind_buffer(gl::ARRAY_BUFFER, 0);
    c.clear_buffer_data(gl::ARRAY_BUFFER, gl::R8, gl::RED, gl::UNSIGNED_BYTE, one);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "nothing bound");
    c.clear_buffer_sub_data(
        gl::ARRAY_BUFFER,
        gl::R8,
        0,
        1,
        gl::RED,
        gl::UNSIGNED_BYTE,
        one,
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "nothing bound (sub)");
}

#[test]
fn named_forms_and_parameter_queries() {
    let mut c = ctx();
    let b = c.create_buffers(1)[0];
    let flags = gl::MAP_READ_BIT | gl::MAP_WRITE_BIT | gl::DYNAMIC_STORAGE_BIT;
    c.named_buffer_storage(b, 32, Some(&[3; 32][..]), flags);
    c.named_buffer_sub_data(b, 8, &[7, 8]);
    assert_eq!(c.get_named_buffer_sub_data(b, 7, 4), vec![3, 7, 8, 3]);
    assert_eq!(
        c.get_named_buffer_parameteriv(b, gl::BUFFER_IMMUTABLE_STORAGE),
        1
    );
    assert_eq!(
        c.get_named_buffer_parameteriv(b, gl::BUFFER_STORAGE_FLAGS),
        flags as i32
    );
    assert_eq!(
        c.get_named_buffer_parameteriv(b, gl::BUFFER_ACCESS),
        gl::READ_WRITE as i32
    );
    assert!(c
        .get_named_buffer_pointerv(b, gl::BUFFER_MAP_POINTER)
        .is_null());
    let p = c.map_named_buffer_range(b, 8, 16, gl::MAP_READ_BIT);
    assert!(!p.is_null());
    assert_eq!(c.get_named_buffer_pointerv(b, gl::BUFFER_MAP_POINTER), p);
    c.bind_buffer(gl::UNIFORM_BUFFER, b);
    assert_eq!(
        c.get_buffer_pointerv(gl::UNIFORM_BUFFER, gl::BUFFER_MAP_POINTER),
        p
    );
    assert_eq!(
        c.get_buffer_parameteri64v(gl::UNIFORM_BUFFER, gl::BUFFER_MAP_OFFSET),
        8
    );
    assert_eq!(
        c.get_named_buffer_parameteri64v(b, gl::BUFFER_MAP_LENGTH),
        16
    );
    assert_eq!(
        c.get_named_buffer_parameteriv(b, gl::BUFFER_ACCESS),
        gl::READ_ONLY as i32
    );
    c.flush_mapped_named_buffer_range(b, 0, 4);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "no MAP_FLUSH_EXPLICIT_BIT"
    );
    assert!(c.unmap_named_buffer(b));
    assert!(!c.unmap_named_buffer(b));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not mapped");
    c.named_buffer_data(b, 4, None, gl::STATIC_DRAW);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "immutable");
    c.get_buffer_pointerv(gl::UNIFORM_BUFFER, gl::BUFFER_SIZE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Names that are not buffer objects: never made, or generated and never bound.
    let gen = c.gen_buffers(1)[0];
    for name in [9999, gen] {
        c.named_buffer_data(name, 4, None, gl::STATIC_DRAW);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{name}");
        c.get_named_buffer_parameteri64v(name, gl::BUFFER_SIZE);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{name}");
    }
    let big = c.create_buffers(1)[0];
    c.named_buffer_data(big, 1 << 20, None, gl::STREAM_READ);
    assert_eq!(
        c.get_named_buffer_parameteri64v(big, gl::BUFFER_SIZE),
        1 << 20
    );
    assert_eq!(
        c.get_named_buffer_parameteriv(big, gl::BUFFER_USAGE),
        gl::STREAM_READ as i32
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn multi_bind_binds_each_point_and_leaves_the_generic_binding() {
    let mut c = ctx();
    let b = c.create_buffers(3);
    for &x in &b {
        c.named_buffer_data(x, 256, None, gl::STATIC_DRAW);
    }
    c.bind_buffer(gl::UNIFORM_BUFFER, b[2]);
    c.bind_buffers_base(gl::UNIFORM_BUFFER, 1, 2, Some(&b[..2]));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 1),
        vec![b[0] as i32]
    );
    assert_eq!(
        c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 2),
        vec![b[1] as i32]
    );
    assert_eq!(
        c.get_integerv(gl::UNIFORM_BUFFER_BINDING),
        vec![b[2] as i32],
        "generic unchanged"
    );
    // Entry 1's offset is misaligned: INVALID_VALUE, entries 0 and 2 bound.
    c.bind_buffers_range(
        gl::SHADER_STORAGE_BUFFER,
        0,
        3,
        Some(&b[..]),
        &[16, 3, 32],
        &[16, 16, 64],
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(
        c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_BINDING, 0),
        vec![b[0] as i32]
    );
    assert_eq!(
        c.get_integer64i_v(gl::SHADER_STORAGE_BUFFER_START, 0),
        vec![16]
    );
    assert_eq!(
        c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_BINDING, 1),
        vec![0]
    );
    assert_eq!(
        c.get_integer64i_v(gl::SHADER_STORAGE_BUFFER_SIZE, 2),
        vec![64]
    );
    assert_eq!(
        c.get_integerv(gl::SHADER_STORAGE_BUFFER_BINDING),
        vec![0],
        "generic unchanged"
    );
    c.bind_buffers_base(gl::UNIFORM_BUFFER, 1, 2, None);
    assert_eq!(c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 1), vec![0]);
    assert_eq!(c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 2), vec![0]);
    let max = c.get_integerv(gl::MAX_UNIFORM_BUFFER_BINDINGS)[0] as u32;
    c.bind_buffers_base(gl::UNIFORM_BUFFER, max - 1, 2, Some(&b[..2]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "first + count past the points"
    );
    c.bind_buffers_base(gl::ARRAY_BUFFER, 0, 1, Some(&b[..1]));
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.bind_buffers_base(gl::UNIFORM_BUFFER, 0, 2, Some(&[b[0], 9999][..]));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a buffer");
    assert_eq!(
        c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 0),
        vec![b[0] as i32]
    );
}
