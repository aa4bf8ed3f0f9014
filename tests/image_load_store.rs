//! Image units and shader image access through the Rust `Context` (GL 4.5 core §8.26,
//! GLSL 4.60 §8.12): glBindImageTexture and glBindImageTextures with their errors, the
//! GL_IMAGE_BINDING_* queries, the initial state, and units left when their texture is
//! deleted; compute and fragment shaders storing, loading and updating images of several
//! formats and targets (exact readback with glGetTexImage), bounds, the compile errors of
//! the memory and format qualifiers, and 1 vs 2 workers agreeing.

mod common;

use softgl::{enums as gl, Context};

fn shader(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// A linked compute program, current; panics with the info log on failure.
fn compute(c: &mut Context, src: &str) -> u32 {
    let (s, ok, log) = shader(c, gl::COMPUTE_SHADER, src);
    assert!(ok, "{log}");
    let p = c.create_program();
    c.attach_shader(p, s);
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    c.use_program(p);
    p
}

/// Runs `f` on a fresh context of 1 and of 2 workers; both must return the same.
fn on_1_and_2_workers<T: PartialEq + std::fmt::Debug>(f: impl Fn(&mut Context) -> T) -> T {
    let a = f(&mut common::context(8, 8, 1));
    let b = f(&mut common::context(8, 8, 2));
    assert_eq!(a, b, "1 and 2 workers agree");
    a
}

fn texture(c: &mut Context, target: u32, format: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    match target {
        gl::TEXTURE_2D => c.tex_storage_2d(target, 2, format, 4, 4),
        _ => c.tex_storage_3d(target, 1, format, 4, 4, 3),
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

fn binding(c: &mut Context, unit: u32) -> [i32; 6] {
    [
        gl::IMAGE_BINDING_NAME,
        gl::IMAGE_BINDING_LEVEL,
        gl::IMAGE_BINDING_LAYERED,
        gl::IMAGE_BINDING_LAYER,
        gl::IMAGE_BINDING_ACCESS,
        gl::IMAGE_BINDING_FORMAT,
    ]
    .map(|p| c.get_integeri_v(p, unit)[0])
}

const INITIAL: [i32; 6] = [0, 0, 0, 0, gl::READ_ONLY as i32, gl::R8 as i32];

#[test]
fn bind_query_and_unbind() {
    let mut c = Context::new(4, 4);
    let max = c.get_integerv(gl::MAX_IMAGE_UNITS)[0];
    assert!(max >= 8, "GL 4.5 core table 23.64");
    for u in 0..max as u32 {
        assert_eq!(binding(&mut c, u), INITIAL, "unit {u}");
    }
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RGBA8);
    // The format need not be the texture's (compatibility is checked when shaders use it).
    c.bind_image_texture(3, t, 1, false, 0, gl::WRITE_ONLY, gl::R32UI);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        binding(&mut c, 3),
        [t as i32, 1, 0, 0, gl::WRITE_ONLY as i32, gl::R32UI as i32]
    );
    assert_eq!(c.get_booleani_v(gl::IMAGE_BINDING_LAYERED, 3), [false]);
    let a = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA32F);
    c.bind_image_texture(0, a, 0, true, 2, gl::READ_WRITE, gl::RGBA32F);
    assert_eq!(c.get_booleani_v(gl::IMAGE_BINDING_LAYERED, 0), [true]);
    assert_eq!(c.get_integeri_v(gl::IMAGE_BINDING_LAYER, 0), [2]);
    // Texture 0 resets the unit; deleting a texture leaves the units it was bound to.
    c.bind_image_texture(0, 0, 0, false, 0, gl::READ_ONLY, gl::R8);
    assert_eq!(binding(&mut c, 0), INITIAL);
    c.delete_textures(&[t]);
    assert_eq!(binding(&mut c, 3), INITIAL);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// GL 4.5 core §8.26's errors; a failed call changes nothing.
#[test]
fn bind_image_texture_errors() {
    let mut c = Context::new(4, 4);
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RGBA8);
    let max = c.get_integerv(gl::MAX_IMAGE_UNITS)[0] as u32;
    let cases: [(u32, u32, i32, i32, u32, u32, u32); 6] = [
        (max, t, 0, 0, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (
            0,
            t + 100,
            0,
            0,
            gl::READ_ONLY,
            gl::RGBA8,
            gl::INVALID_VALUE,
        ),
        (0, t, -1, 0, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (0, t, 0, -1, gl::READ_ONLY, gl::RGBA8, gl::INVALID_VALUE),
        (0, t, 0, 0, gl::RGBA, gl::RGBA8, gl::INVALID_ENUM),
        (
            0,
            t,
            0,
            0,
            gl::READ_ONLY,
            gl::SRGB8_ALPHA8,
            gl::INVALID_VALUE,
        ),
    ];
    for (unit, tex, level, layer, access, format, err) in cases {
        c.bind_image_texture(unit, tex, level, false, layer, access, format);
        assert_eq!(
            c.get_error(),
            err,
            "{unit} {tex} {level} {layer} {access:#x} {format:#x}"
        );
        assert_eq!(binding(&mut c, 0), INITIAL);
    }
    c.get_integeri_v(gl::IMAGE_BINDING_NAME, max);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

/// glBindImageTextures (ARB_multi_bind): level 0, layered for layered targets, READ_WRITE,
/// level 0's format; a bad entry is skipped with INVALID_OPERATION, the others bind; a
/// null list unbinds.
#[test]
fn bind_image_textures() {
    let mut c = Context::new(4, 4);
    let t = texture(&mut c, gl::TEXTURE_2D, gl::RG16F);
    let a = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::R32I);
    let srgb = texture(&mut c, gl::TEXTURE_2D, gl::SRGB8_ALPHA8);
    c.bind_image_textures(1, 4, Some(&[t, a, srgb, 0]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "sRGB has no image format"
    );
    let rw = gl::READ_WRITE as i32;
    assert_eq!(
        binding(&mut c, 1),
        [t as i32, 0, 0, 0, rw, gl::RG16F as i32]
    );
    assert_eq!(binding(&mut c, 2), [a as i32, 0, 1, 0, rw, gl::R32I as i32]);
    assert_eq!(binding(&mut c, 3), INITIAL);
    assert_eq!(binding(&mut c, 4), INITIAL);
    c.bind_image_textures(7, 2, Some(&[t, t]));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "past GL_MAX_IMAGE_UNITS"
    );
    c.bind_image_textures(0, 3, None);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for u in 0..3 {
        assert_eq!(binding(&mut c, u), INITIAL);
    }
}

#[test]
fn the_commands_have_c_entry_points() {
    let missing: Vec<&str> = softgl::missing_entry_points().iter().map(|m| m.0).collect();
    for name in ["glBindImageTexture", "glBindImageTextures"] {
        assert!(!softgl::get_proc_address(name).is_null(), "{name}");
        assert!(!missing.contains(&name), "{name} is listed as missing");
    }
}

/// A 4×4 texture of `format` (one level) bound to unit `unit` as `access`.
fn image_2d(c: &mut Context, unit: u32, format: u32, access: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, format, 4, 4);
    c.bind_image_texture(unit, t, 0, false, 0, access, format);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

fn texels(c: &mut Context, t: u32, format: u32, ty: u32) -> Vec<u8> {
    c.bind_texture(gl::TEXTURE_2D, t);
    let v = c.get_tex_image(gl::TEXTURE_2D, 0, format, ty);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    v
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect()
}

/// A compute shader stores into images of four formats; readback is exact: unorm8 rounds
/// to nearest, floats are stored as given, integers clamp to the format's range.
#[test]
fn compute_stores_images_of_several_formats() {
    let out = on_1_and_2_workers(|c| {
        compute(
            c,
            "#version 430\n\
             layout(local_size_x = 4, local_size_y = 4) in;\n\
             layout(rgba8, binding = 0) writeonly uniform image2D a;\n\
             layout(r32f, binding = 1) uniform image2D b;\n\
             layout(rgba32ui, binding = 2) writeonly uniform uimage2D u;\n\
             layout(r16i, binding = 3) writeonly uniform iimage2D s;\n\
             void main() {\n\
               ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n\
               imageStore(a, p, vec4(float(p.x) / 4.0, float(p.y) / 4.0, 1.0, 0.5));\n\
               imageStore(b, p, vec4(float(p.x * 10 + p.y) + 0.25));\n\
               imageStore(u, p, uvec4(p.x, p.y, 7u, 0xFFFFFFFFu));\n\
               imageStore(s, p, ivec4(p.x * 20000 - 30000));\n\
             }\n",
        );
        let a = image_2d(c, 0, gl::RGBA8, gl::WRITE_ONLY);
        let b = image_2d(c, 1, gl::R32F, gl::READ_WRITE);
        let u = image_2d(c, 2, gl::RGBA32UI, gl::WRITE_ONLY);
        let s = image_2d(c, 3, gl::R16I, gl::WRITE_ONLY);
        c.dispatch_compute(1, 1, 1);
        c.memory_barrier(gl::TEXTURE_UPDATE_BARRIER_BIT | gl::SHADER_IMAGE_ACCESS_BARRIER_BIT);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        (
            texels(c, a, gl::RGBA, gl::UNSIGNED_BYTE),
            texels(c, b, gl::RED, gl::FLOAT),
            texels(c, u, gl::RGBA_INTEGER, gl::UNSIGNED_INT),
            texels(c, s, gl::RED_INTEGER, gl::SHORT),
        )
    });
    let (a, b, u, s) = out;
    for y in 0..4usize {
        for x in 0..4usize {
            let i = y * 4 + x;
            let q = |v: usize| [0u8, 64, 128, 191][v];
            assert_eq!(
                &a[i * 4..i * 4 + 4],
                &[q(x), q(y), 255, 128],
                "rgba8 {x},{y}"
            );
            let f = f32::from_le_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
            assert_eq!(f, (x * 10 + y) as f32 + 0.25, "r32f {x},{y}");
            assert_eq!(
                &words(&u)[i * 4..i * 4 + 4],
                &[x as u32, y as u32, 7, u32::MAX]
            );
            let v = i16::from_le_bytes([s[i * 2], s[i * 2 + 1]]);
            assert_eq!(v as i32, (x as i32 * 20000 - 30000).clamp(-32768, 32767));
        }
    }
}

/// imageLoad reads what was uploaded through the unit's format; a layered 2D array unit
/// reaches every layer, a single-layer unit one; reads and writes outside the image read
/// zero and change nothing.
#[test]
fn loads_layers_and_bounds() {
    let out = on_1_and_2_workers(|c| {
        compute(
            c,
            "#version 430\n\
             layout(local_size_x = 4, local_size_y = 4, local_size_z = 3) in;\n\
             layout(rgba8ui, binding = 0) readonly uniform uimage2DArray src;\n\
             layout(r32ui, binding = 1) uniform uimage2D one;\n\
             layout(std430, binding = 0) buffer Out { uint o[]; };\n\
             void main() {\n\
               ivec3 p = ivec3(gl_GlobalInvocationID);\n\
               uint i = uint(p.z * 16 + p.y * 4 + p.x);\n\
               uvec4 t = imageLoad(src, p);\n\
               o[i] = t.r | t.g << 8 | t.b << 16 | t.a << 24;\n\
               o[48u + i] = imageLoad(src, p + ivec3(4, 0, 0)).a + imageLoad(src, ivec3(0, 0, 3)).a\n\
                   + imageLoad(src, ivec3(-1, 0, 0)).a;\n\
               if (p.z == 0) {\n\
                 imageStore(one, p.xy, uvec4(i + 100u));\n\
                 imageStore(one, p.xy + ivec2(0, 4), uvec4(1u));\n\
                 imageStore(one, ivec2(-1, p.y), uvec4(1u));\n\
               }\n\
               ivec3 sz = imageSize(src);\n\
               o[96u + i] = uint(sz.x * 100 + sz.y * 10 + sz.z) + uint(imageSize(one).x * 1000);\n\
             }\n",
        );
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D_ARRAY, t);
        c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8UI, 4, 4, 3);
        let data: Vec<u8> = (0..4 * 4 * 3 * 4).map(|i| (i * 7 % 251) as u8).collect();
        c.tex_sub_image_3d(
            gl::TEXTURE_2D_ARRAY,
            0,
            [0, 0, 0],
            [4, 4, 3],
            gl::RGBA_INTEGER,
            gl::UNSIGNED_BYTE,
            &data,
        );
        c.bind_image_texture(0, t, 0, true, 0, gl::READ_ONLY, gl::RGBA8UI);
        let one = image_2d(c, 1, gl::R32UI, gl::READ_WRITE);
        let b = c.gen_buffers(1)[0];
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
        c.buffer_data(gl::SHADER_STORAGE_BUFFER, 144 * 4, None, gl::DYNAMIC_DRAW);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let o = words(&c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 144 * 4));
        (
            data,
            o,
            words(&texels(c, one, gl::RED_INTEGER, gl::UNSIGNED_INT)),
        )
    });
    let (data, o, one) = out;
    for i in 0..48 {
        let w = u32::from_le_bytes([
            data[i * 4],
            data[i * 4 + 1],
            data[i * 4 + 2],
            data[i * 4 + 3],
        ]);
        assert_eq!(o[i], w, "texel {i}");
        assert_eq!(o[48 + i], 0, "outside reads zero");
        assert_eq!(o[96 + i], 4000 + 443, "imageSize");
    }
    assert_eq!(
        one,
        (100..116).collect::<Vec<u32>>(),
        "outside stores dropped"
    );
}

const FULL_SCREEN_VS: &str = "#version 430\n\
    void main() {\n\
      vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
      gl_Position = vec4(p, 0.0, 1.0);\n\
    }\n";

/// A fragment shader counts its invocations per pixel and in total with imageAtomicAdd and
/// stores gl_FragCoord: over two triangles sharing a diagonal every pixel is counted once,
/// discarded fragments (column 3) neither count nor store, and the counts are exact for
/// 1 and 2 workers.
#[test]
fn fragments_count_and_store_exactly() {
    let (hits, total, coords) = on_1_and_2_workers(|c| {
        let p = common::program(
            c,
            FULL_SCREEN_VS,
            "#version 430\n\
             layout(r32ui, binding = 0) uniform uimage2D hits;\n\
             layout(r32ui, binding = 1) uniform uimage2D total;\n\
             layout(rgba32f, binding = 2) writeonly uniform image2D coords;\n\
             out vec4 color;\n\
             void main() {\n\
               ivec2 p = ivec2(gl_FragCoord.xy);\n\
               if (p.x == 3) discard;\n\
               imageAtomicAdd(hits, p, 1u);\n\
               imageAtomicAdd(total, ivec2(0), 1u);\n\
               imageStore(coords, p, vec4(gl_FragCoord.xy, 1.0, 2.0));\n\
               color = vec4(1.0);\n\
             }\n",
        );
        c.use_program(p);
        let mk = |c: &mut Context, unit, format, w| {
            let t = c.gen_textures(1)[0];
            c.bind_texture(gl::TEXTURE_2D, t);
            c.tex_storage_2d(gl::TEXTURE_2D, 1, format, w, w);
            c.bind_image_texture(unit, t, 0, false, 0, gl::READ_WRITE, format);
            t
        };
        let hits = mk(c, 0, gl::R32UI, 8);
        let total = mk(c, 1, gl::R32UI, 1);
        let coords = mk(c, 2, gl::RGBA32F, 8);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        c.memory_barrier(gl::ALL_BARRIER_BITS);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let read = |c: &mut Context, t| {
            c.bind_texture(gl::TEXTURE_2D, t);
            words(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT))
        };
        let h = read(c, hits);
        let n = read(c, total);
        c.bind_texture(gl::TEXTURE_2D, coords);
        let f = words(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::FLOAT));
        (h, n, f)
    });
    for y in 0..8 {
        for x in 0..8 {
            let i = y * 8 + x;
            let want = if x == 3 { 0 } else { 1 };
            assert_eq!(hits[i], want, "pixel {x},{y}");
            let c: Vec<f32> = coords[i * 4..i * 4 + 4]
                .iter()
                .map(|w| f32::from_bits(*w))
                .collect();
            if x == 3 {
                assert_eq!(c, [0.0; 4]);
            } else {
                assert_eq!(c, [x as f32 + 0.5, y as f32 + 0.5, 1.0, 2.0]);
            }
        }
    }
    assert_eq!(total, [56]);
}

/// ARB_bindless_texture's image handles: a resident handle set with glUniformHandleui64ARB
/// (or read from a buffer as a uvec2) reaches its level; a non-resident or forged handle
/// reads zero and drops stores; the API's errors.
#[test]
fn bindless_image_handles() {
    let mut c = common::context(4, 4, 2);
    let p = compute(
        &mut c,
        "#version 430\n\
         #extension GL_ARB_bindless_texture : require\n\
         layout(local_size_x = 4) in;\n\
         layout(bindless_image, r32ui) uniform uimage2D img;\n\
         layout(std430, binding = 0) buffer B { uvec2 h; uint seen[4]; };\n\
         void main() {\n\
           int x = int(gl_LocalInvocationID.x);\n\
           seen[x] = imageLoad(img, ivec2(x, 0)).r + imageAtomicAdd(img, ivec2(x, 3), 1u);\n\
           imageStore(img, ivec2(x, 1), uvec4(10u + uint(x)));\n\
           imageStore(uimage2D(h), ivec2(x, 2), uvec4(20u + uint(x)));\n\
         }\n",
    );
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 4, 4);
    let init: Vec<u8> = (0..16u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        4,
        4,
        gl::RED_INTEGER,
        gl::UNSIGNED_INT,
        &init,
    );
    // Errors: no texture, bad format, a handle that is not one, residency twice.
    assert_eq!(c.get_image_handle_arb(0, 0, false, 0, gl::R32UI), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_image_handle_arb(t, 0, false, 0, gl::RGB8), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let h = c.get_image_handle_arb(t, 0, false, 0, gl::R32UI);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_ne!(h, 0);
    assert_eq!(
        c.get_image_handle_arb(t, 0, false, 0, gl::R32UI),
        h,
        "the same handle again"
    );
    c.make_image_handle_resident_arb(h + 1000, gl::READ_WRITE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.make_image_handle_resident_arb(h, gl::RGBA);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert!(!c.is_image_handle_resident_arb(h));
    let loc = c.get_uniform_location(p, "img");
    c.uniform_handle_ui64_arb(loc, h);
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    let forged = h ^ 0x40;
    let mut data: Vec<u8> = Vec::new();
    data.extend_from_slice(&forged.to_le_bytes());
    data.extend_from_slice(&[0u8; 16]);
    c.buffer_data(gl::SHADER_STORAGE_BUFFER, 24, Some(&data), gl::DYNAMIC_DRAW);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b);
    let read = |c: &mut Context| {
        c.bind_texture(gl::TEXTURE_2D, t);
        words(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT))
    };
    let seen = |c: &mut Context| {
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
        words(&c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 8, 16))
    };
    // Not resident: loads read zero, stores and atomics change nothing.
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(read(&mut c), (0..16).map(|i| i * 3).collect::<Vec<u32>>());
    assert_eq!(seen(&mut c), [0; 4]);
    c.make_image_handle_resident_arb(h, gl::READ_WRITE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(c.is_image_handle_resident_arb(h));
    c.make_image_handle_resident_arb(h, gl::READ_WRITE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "already resident");
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let mut want: Vec<u32> = (0..16).map(|i| i * 3).collect();
    for x in 0..4 {
        want[4 + x] = 10 + x as u32;
        want[12 + x] += 1;
    }
    assert_eq!(
        read(&mut c),
        want,
        "the forged handle in the buffer stored nothing"
    );
    assert_eq!(
        seen(&mut c),
        [36, 42, 48, 54],
        "row 0 plus row 3's previous values"
    );
    // The buffer's handle is the real one now: its stores land in row 2.
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    c.buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, &h.to_le_bytes());
    c.dispatch_compute(1, 1, 1);
    let got = read(&mut c);
    assert_eq!(&got[8..12], &[20, 21, 22, 23]);
    c.make_image_handle_non_resident_arb(h);
    assert!(!c.is_image_handle_resident_arb(h));
    c.make_image_handle_non_resident_arb(h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not resident");
    for name in [
        "glGetImageHandleARB",
        "glMakeImageHandleResidentARB",
        "glMakeImageHandleNonResidentARB",
        "glIsImageHandleResidentARB",
    ] {
        assert!(!softgl::get_proc_address(name).is_null(), "{name}");
    }
}
