//! Issue #11 items 2, 4 and 5 as an application sees them: sizes that come from the
//! application fail with GL_OUT_OF_MEMORY (and a message naming the call and the size)
//! instead of aborting, and change nothing; uniform uploads read only the elements GL uses;
//! names past the old 2^20 limit; GL_PIXEL_UNPACK_BUFFER / GL_PIXEL_PACK_BUFFER make the
//! pixel pointer an offset, never a pointer; and the error codes the issue found wrong.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, SharedContext};

type GLenum = u32;
type GLint = i32;
type GLsizei = i32;

/// Looks `name` up and casts it to the C signature `$t` (the way a loader does).
macro_rules! proc {
    ($name:literal as $t:ty) => {{
        let p = get_proc_address($name);
        assert!(!p.is_null(), "{} is not exported", $name);
        // SAFETY: `$t` is the registry's C signature of `$name`, which is what softgl's
        // generated entry point has (build.rs checks it against gl.xml).
        unsafe { std::mem::transmute::<*const c_void, $t>(p) }
    }};
}

fn current(w: u32, h: u32) -> SharedContext {
    let ctx: SharedContext = Arc::new(Mutex::new(Context::new(w, h)));
    make_current(Some(ctx.clone()));
    ctx
}

/// Drains the context's errors: (glGetError, the debug messages' texts).
fn errors(ctx: &SharedContext) -> (u32, Vec<String>) {
    let mut c = ctx.lock().unwrap();
    let e = c.get_error();
    let m = c.debug_messages().into_iter().map(|m| m.message).collect();
    (e, m)
}

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

/// Compiles and links VS + `fs` with the Rust API, makes it current; returns it.
fn program(c: &mut Context, fs: &str) -> u32 {
    let p = c.create_program();
    for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, fs)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_eq!(
            c.get_shaderiv(s, gl::COMPILE_STATUS),
            1,
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 1);
    c.use_program(p);
    p
}

/// A fullscreen triangle, read back at pixel (0, 0).
fn draw_and_read(c: &mut Context) -> [u8; 4] {
    let verts: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    c.enable_vertex_attrib_array(0);
    c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    [px[0], px[1], px[2], px[3]]
}

/// `glUniform1fv(location_of_float[4], 1 << 30, v)` is legal (GL 4.5 core §7.6.1: excess
/// elements are ignored). It used to allocate count × 4 bytes and abort; now only the
/// elements the array has from the location on are read (`v` holds just those).
#[test]
fn uniform_array_upload_reads_only_the_elements_gl_uses() {
    let ctx = current(4, 4);
    let fs = "#version 330\nuniform float f[4];\nuniform vec4 one;\nout vec4 c;\n\
              void main() { c = vec4(f[0], f[1], f[2], f[3]) + one * 0.0; }\n";
    let (loc0, loc2, one) = {
        let mut c = ctx.lock().unwrap();
        let p = program(&mut c, fs);
        (
            c.get_uniform_location(p, "f"),
            c.get_uniform_location(p, "f[2]"),
            c.get_uniform_location(p, "one"),
        )
    };
    let uniform_1fv =
        proc!("glUniform1fv" as unsafe extern "system" fn(GLint, GLsizei, *const f32));
    let uniform_4fv =
        proc!("glUniform4fv" as unsafe extern "system" fn(GLint, GLsizei, *const f32));
    let all = [0.25f32, 0.5, 0.75, 1.0];
    let tail = [0.0f32, 0.5];
    // SAFETY: `all` holds the 4 elements of f from f[0] on, `tail` the 2 from f[2] on:
    // everything GL uses of the count.
    unsafe {
        uniform_1fv(loc0, 1 << 30, all.as_ptr());
        uniform_1fv(loc2, i32::MAX, tail.as_ptr());
    }
    assert_eq!(errors(&ctx).0, gl::NO_ERROR);
    let px = draw_and_read(&mut ctx.lock().unwrap());
    assert_eq!(px, [64, 128, 0, 128]);
    // A non-array uniform with a count above 1 is still GL_INVALID_OPERATION, read or not
    // (`two` holds the 2 elements the check needs).
    let two = [0.0f32; 8];
    // SAFETY: `two` holds 2 vec4s, all a refused non-array upload looks at.
    unsafe { uniform_4fv(one, 1 << 30, two.as_ptr()) };
    assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
    make_current(None);
}

/// glBufferData / glBufferStorage with a size no memory holds: GL_OUT_OF_MEMORY naming the
/// call and the size; the buffer keeps its store.
#[test]
fn buffer_store_past_memory_is_out_of_memory() {
    let ctx = current(4, 4);
    let mut c = ctx.lock().unwrap();
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, b);
    c.buffer_data(gl::ARRAY_BUFFER, 16, Some(&[7; 16]), gl::STATIC_DRAW);
    c.buffer_data(gl::ARRAY_BUFFER, 1 << 62, None, gl::STATIC_DRAW);
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    let msgs: Vec<String> = c.debug_messages().into_iter().map(|m| m.message).collect();
    assert!(
        msgs.iter()
            .any(|m| m == "glBufferData: GL_OUT_OF_MEMORY: 4611686018427387904 bytes"),
        "{msgs:?}"
    );
    assert_eq!(
        c.get_buffer_parameteriv(gl::ARRAY_BUFFER, gl::BUFFER_SIZE),
        16
    );
    let b2 = c.gen_buffers(1)[0];
    c.bind_buffer(gl::COPY_WRITE_BUFFER, b2);
    c.buffer_storage(gl::COPY_WRITE_BUFFER, 1 << 62, None, 0);
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    assert_eq!(
        c.get_buffer_parameteriv(gl::COPY_WRITE_BUFFER, gl::BUFFER_SIZE),
        0
    );
    drop(c);
    make_current(None);
}

/// glGen*/glCreate* of i32::MAX names: GL_OUT_OF_MEMORY at once, no name taken, nothing
/// written; and names go on past the old table's 2^20.
#[test]
fn name_requests_past_memory_take_nothing() {
    let mut c = Context::new(4, 4);
    let first = c.gen_textures(1)[0];
    assert!(c.gen_textures(i32::MAX).is_empty());
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    assert!(c.create_buffers(i32::MAX).is_empty());
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    assert!(c.gen_framebuffers(i32::MAX).is_empty());
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    assert!(c.gen_vertex_arrays(i32::MAX).is_empty());
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);
    assert_eq!(c.gen_textures(1), [first + 1]);
    // glDelete* of a huge n reads only what it is given.
    c.delete_textures(&[first, first + 1, u32::MAX]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let many = c.gen_samplers((1 << 20) + 2);
    assert_eq!(many.len(), (1 << 20) + 2);
    assert!(c.is_sampler(*many.last().unwrap()));
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// GL_PIXEL_UNPACK_BUFFER: glTexImage2D / glTexSubImage2D read the bound buffer at the
/// offset passed as the pointer; past its end, or mapped, is GL_INVALID_OPERATION. The
/// offset 0xdead0000 used to be read as a client pointer (SIGSEGV).
#[test]
fn unpack_buffer_offsets_are_never_pointers() {
    let ctx = current(2, 2);
    type TexImage = unsafe extern "system" fn(
        GLenum,
        GLint,
        GLint,
        GLsizei,
        GLsizei,
        GLint,
        GLenum,
        GLenum,
        *const c_void,
    );
    type TexSubImage = unsafe extern "system" fn(
        GLenum,
        GLint,
        GLint,
        GLint,
        GLsizei,
        GLsizei,
        GLenum,
        GLenum,
        *const c_void,
    );
    let tex_image_2d = proc!("glTexImage2D" as TexImage);
    let tex_sub_image_2d = proc!("glTexSubImage2D" as TexSubImage);
    let pbo_bytes: Vec<u8> = (0..24).collect();
    let tex = {
        let mut c = ctx.lock().unwrap();
        let tex = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, tex);
        let pbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, pbo);
        c.buffer_data(
            gl::PIXEL_UNPACK_BUFFER,
            24,
            Some(&pbo_bytes),
            gl::STREAM_DRAW,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        tex
    };
    // SAFETY: with an unpack buffer bound the pointers are offsets, never dereferenced.
    unsafe {
        // 2×2 RGBA8 from offset 8: bytes 8..24.
        tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as GLint,
            2,
            2,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            8 as *const c_void,
        );
    }
    assert_eq!(errors(&ctx).0, gl::NO_ERROR);
    let read_texture = |c: &mut Context| {
        let fb = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, fb);
        c.framebuffer_texture_2d(
            gl::READ_FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            tex,
            0,
        );
        let px = c.read_pixels(0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE);
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, 0);
        px
    };
    let want: Vec<u8> = (8..24).collect();
    assert_eq!(read_texture(&mut ctx.lock().unwrap()), want);
    // SAFETY: as above.
    unsafe {
        // One texel from offset 0: bytes 0..4 into (1, 1).
        tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            1,
            1,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null(),
        );
        assert_eq!(errors(&ctx).0, gl::NO_ERROR);
        // Past the end of the buffer: GL_INVALID_OPERATION, nothing read, nothing written.
        tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            0xdead_0000usize as *const c_void,
        );
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
        tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            0,
            0,
            2,
            2,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            12 as *const c_void,
        );
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
        tex_image_2d(
            gl::TEXTURE_2D,
            1,
            gl::RGBA8 as GLint,
            1,
            1,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            usize::MAX as *const c_void,
        );
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
        // An offset that is not a multiple of the type's size.
        tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::FLOAT,
            2 as *const c_void,
        );
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
    }
    let mut want = want;
    want[12..16].copy_from_slice(&[0, 1, 2, 3]);
    assert_eq!(read_texture(&mut ctx.lock().unwrap()), want);
    // Mapped: GL_INVALID_OPERATION.
    ctx.lock()
        .unwrap()
        .map_buffer(gl::PIXEL_UNPACK_BUFFER, gl::READ_ONLY);
    // SAFETY: as above.
    unsafe {
        tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null(),
        )
    };
    assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
    {
        let mut c = ctx.lock().unwrap();
        c.unmap_buffer(gl::PIXEL_UNPACK_BUFFER);
        // Unbound: the pointer is a pointer again (null: no data).
        c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 0);
    }
    // SAFETY: null pixels with no unpack buffer: allocation only.
    unsafe {
        tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as GLint,
            2,
            2,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null(),
        )
    };
    assert_eq!(errors(&ctx).0, gl::NO_ERROR);
    assert_eq!(read_texture(&mut ctx.lock().unwrap()), [0; 16]);
    make_current(None);
}

/// GL_PIXEL_PACK_BUFFER: glReadPixels writes into the bound buffer at the offset passed as
/// the pointer; past its end, or mapped, is GL_INVALID_OPERATION and writes nothing.
#[test]
fn read_pixels_into_a_pack_buffer() {
    let ctx = current(2, 2);
    let read_pixels = proc!(
        "glReadPixels"
            as unsafe extern "system" fn(
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLenum,
                GLenum,
                *mut c_void,
            )
    );
    {
        let mut c = ctx.lock().unwrap();
        c.clear_color(1.0, 0.0, 1.0, 1.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        let pbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::PIXEL_PACK_BUFFER, pbo);
        c.buffer_data(gl::PIXEL_PACK_BUFFER, 12, None, gl::STREAM_READ);
    }
    // SAFETY: with a pack buffer bound the pointers are offsets, never dereferenced.
    unsafe {
        read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4 as *mut c_void);
        assert_eq!(errors(&ctx).0, gl::NO_ERROR);
        read_pixels(0, 0, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, 8 as *mut c_void);
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
        read_pixels(
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            0xdead_0000usize as *mut c_void,
        );
        assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
    }
    let got = ctx
        .lock()
        .unwrap()
        .get_buffer_sub_data(gl::PIXEL_PACK_BUFFER, 0, 12);
    assert_eq!(got, [0, 0, 0, 0, 255, 0, 255, 255, 0, 0, 0, 0]);
    ctx.lock()
        .unwrap()
        .map_buffer(gl::PIXEL_PACK_BUFFER, gl::READ_ONLY);
    // SAFETY: as above.
    unsafe {
        read_pixels(
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(errors(&ctx).0, gl::INVALID_OPERATION);
    make_current(None);
}

/// glGetActiveUniform / GetActiveAttrib / GetActiveUniformBlockName with an index past the
/// active resources is GL_INVALID_VALUE (GL 4.5 core §7.3.1), linked or not.
#[test]
fn active_resource_index_out_of_range_is_invalid_value() {
    let mut c = Context::new(4, 4);
    let p = program(
        &mut c,
        "#version 330\nuniform vec4 k;\nout vec4 c;\nvoid main() { c = k; }\n",
    );
    assert_eq!(c.get_active_uniform(p, 0).0, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for index in [1, 0x7fff_ffff, u32::MAX] {
        c.get_active_uniform(p, index);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "uniform {index}");
        c.get_active_attrib(p, index);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "attrib {index}");
        c.get_active_uniform_block_name(p, index);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "block {index}");
    }
    let unlinked = c.create_program();
    c.get_active_uniform(unlinked, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Not a program at all stays what it was.
    c.get_active_uniform(unlinked + 100, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

/// GL 4.5 core table 8.5: a packed type with a format of another component count is
/// GL_INVALID_OPERATION (not GL_INVALID_ENUM); an enum that is no type is GL_INVALID_ENUM.
#[test]
fn pixel_format_and_type_errors_follow_table_8_5() {
    let mut c = Context::new(4, 4);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    let cases = [
        (gl::RGBA, gl::UNSIGNED_SHORT_5_6_5, gl::INVALID_OPERATION),
        (gl::RGB, gl::UNSIGNED_SHORT_4_4_4_4, gl::INVALID_OPERATION),
        (
            gl::RG,
            gl::UNSIGNED_INT_2_10_10_10_REV,
            gl::INVALID_OPERATION,
        ),
        (gl::RGBA, gl::UNSIGNED_INT_24_8, gl::INVALID_OPERATION),
        (gl::RGBA_INTEGER, gl::FLOAT, gl::INVALID_OPERATION),
        (gl::DEPTH_STENCIL, gl::UNSIGNED_BYTE, gl::INVALID_OPERATION),
        (gl::RGBA, gl::TEXTURE_2D, gl::INVALID_ENUM),
        (gl::TEXTURE_2D, gl::UNSIGNED_BYTE, gl::INVALID_ENUM),
        (gl::RGBA, gl::UNSIGNED_BYTE, gl::NO_ERROR),
    ];
    for (format, ty, want) in cases {
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            1,
            1,
            0,
            format,
            ty,
            Some(&[0; 16]),
        );
        assert_eq!(c.get_error(), want, "{format:#x} {ty:#x}");
    }
    c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_SHORT_5_6_5);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::TEXTURE_2D);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}
