//! The C entry points of the vertex attribute binding, generic attribute value, buffer and
//! small state commands, called through their registry signatures as a C program calls
//! them: argument conversion (shorts, doubles, normalized bytes, packed words), arrays
//! with a null pointer, out-pointers that a failed query leaves alone.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, SharedContext};

type GLenum = u32;
type GLuint = u32;
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

fn current() -> SharedContext {
    let ctx: SharedContext = Arc::new(Mutex::new(Context::new(4, 4)));
    make_current(Some(ctx.clone()));
    ctx
}

fn error() -> GLenum {
    let f = proc!("glGetError" as unsafe extern "system" fn() -> GLenum);
    // SAFETY: no arguments.
    unsafe { f() }
}

#[test]
fn attribute_setters_convert_their_c_arguments() {
    let _ctx = current();
    let get_fv =
        proc!("glGetVertexAttribfv" as unsafe extern "system" fn(GLuint, GLenum, *mut f32));
    let get_iv =
        proc!("glGetVertexAttribiv" as unsafe extern "system" fn(GLuint, GLenum, *mut GLint));
    let get_iuiv =
        proc!("glGetVertexAttribIuiv" as unsafe extern "system" fn(GLuint, GLenum, *mut GLuint));
    let get_ldv =
        proc!("glGetVertexAttribLdv" as unsafe extern "system" fn(GLuint, GLenum, *mut f64));
    let nub = proc!("glVertexAttrib4Nub" as unsafe extern "system" fn(GLuint, u8, u8, u8, u8));
    let s3 = proc!("glVertexAttrib3s" as unsafe extern "system" fn(GLuint, i16, i16, i16));
    let d2v = proc!("glVertexAttrib2dv" as unsafe extern "system" fn(GLuint, *const f64));
    let nsv = proc!("glVertexAttrib4Nsv" as unsafe extern "system" fn(GLuint, *const i16));
    let i2uiv = proc!("glVertexAttribI2uiv" as unsafe extern "system" fn(GLuint, *const GLuint));
    let i4usv = proc!("glVertexAttribI4usv" as unsafe extern "system" fn(GLuint, *const u16));
    let l3dv = proc!("glVertexAttribL3dv" as unsafe extern "system" fn(GLuint, *const f64));
    let p3uiv = proc!(
        "glVertexAttribP3uiv" as unsafe extern "system" fn(GLuint, GLenum, u8, *const GLuint)
    );
    let cur = gl::CURRENT_VERTEX_ATTRIB;
    let mut f = [9.0f32; 4];
    // SAFETY: every pointer is to a live local of the size the command reads or writes.
    unsafe {
        nub(0, 0, 51, 255, 128);
        get_fv(0, cur, f.as_mut_ptr());
        assert_eq!(f, [0.0, 0.2, 1.0, 128.0 / 255.0]);
        s3(1, -3, 4, 5);
        get_fv(1, cur, f.as_mut_ptr());
        assert_eq!(f, [-3.0, 4.0, 5.0, 1.0]);
        let mut iv = [0; 4];
        get_iv(1, cur, iv.as_mut_ptr());
        assert_eq!(
            iv,
            [-3, 4, 5, 1],
            "glGetVertexAttribiv converts to integers"
        );
        d2v(2, [0.5f64, 1e-3].as_ptr());
        get_fv(2, cur, f.as_mut_ptr());
        assert_eq!(f, [0.5, 1e-3f64 as f32, 0.0, 1.0]);
        nsv(3, [-32768i16, 32767, 0, -1].as_ptr());
        get_fv(3, cur, f.as_mut_ptr());
        assert_eq!(f, [-1.0, 1.0, 0.0, -1.0 / 32767.0]);
        let mut u = [0u32; 4];
        i2uiv(4, [7u32, 8].as_ptr());
        get_iuiv(4, cur, u.as_mut_ptr());
        assert_eq!(u, [7, 8, 0, 1]);
        i4usv(4, [1u16, 2, 3, 65535].as_ptr());
        get_iuiv(4, cur, u.as_mut_ptr());
        assert_eq!(u, [1, 2, 3, 65535]);
        let mut d = [0.0f64; 4];
        l3dv(5, [0.1f64, 0.2, 0.3].as_ptr());
        get_ldv(5, cur, d.as_mut_ptr());
        assert_eq!(d, [0.1, 0.2, 0.3, 1.0]);
        // UNSIGNED_INT_10F_11F_11F_REV: 1.0 in each field (exponent 15, mantissa 0).
        let word = (15 << 6) | ((15 << 6) << 11) | ((15 << 5) << 22);
        p3uiv(6, gl::UNSIGNED_INT_10F_11F_11F_REV, 0, &word);
        get_fv(6, cur, f.as_mut_ptr());
        assert_eq!(f, [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(error(), gl::NO_ERROR);
        d2v(2, std::ptr::null());
        assert_eq!(error(), gl::INVALID_VALUE, "null array");
        let mut keep = [-7.0f32; 4];
        get_fv(99, cur, keep.as_mut_ptr());
        assert_eq!(error(), gl::INVALID_VALUE);
        assert_eq!(keep, [-7.0; 4], "a failed query writes nothing");
    }
}

#[test]
fn vertex_buffer_and_buffer_entry_points() {
    let _ctx = current();
    let create_vaos =
        proc!("glCreateVertexArrays" as unsafe extern "system" fn(GLsizei, *mut GLuint));
    let create_buffers =
        proc!("glCreateBuffers" as unsafe extern "system" fn(GLsizei, *mut GLuint));
    let named_data = proc!(
        "glNamedBufferData" as unsafe extern "system" fn(GLuint, isize, *const c_void, GLenum)
    );
    let vao_buffers = proc!(
        "glVertexArrayVertexBuffers"
            as unsafe extern "system" fn(
                GLuint,
                GLuint,
                GLsizei,
                *const GLuint,
                *const isize,
                *const GLsizei,
            )
    );
    let get64 = proc!(
        "glGetVertexArrayIndexed64iv"
            as unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut i64)
    );
    let copy = proc!(
        "glCopyNamedBufferSubData"
            as unsafe extern "system" fn(GLuint, GLuint, isize, isize, isize)
    );
    let clear_sub = proc!(
        "glClearNamedBufferSubData"
            as unsafe extern "system" fn(
                GLuint,
                GLenum,
                isize,
                isize,
                GLenum,
                GLenum,
                *const c_void,
            )
    );
    let get_sub = proc!(
        "glGetNamedBufferSubData" as unsafe extern "system" fn(GLuint, isize, isize, *mut c_void)
    );
    let map = proc!("glMapNamedBuffer" as unsafe extern "system" fn(GLuint, GLenum) -> *mut c_void);
    let pointer = proc!(
        "glGetNamedBufferPointerv" as unsafe extern "system" fn(GLuint, GLenum, *mut *mut c_void)
    );
    let unmap = proc!("glUnmapNamedBuffer" as unsafe extern "system" fn(GLuint) -> u8);
    let bind_range = proc!(
        "glBindBuffersRange"
            as unsafe extern "system" fn(
                GLenum,
                GLuint,
                GLsizei,
                *const GLuint,
                *const isize,
                *const isize,
            )
    );
    let get_i64 =
        proc!("glGetBufferParameteri64v" as unsafe extern "system" fn(GLenum, GLenum, *mut i64));
    let bind = proc!("glBindBuffer" as unsafe extern "system" fn(GLenum, GLuint));
    let precision = proc!(
        "glGetShaderPrecisionFormat"
            as unsafe extern "system" fn(GLenum, GLenum, *mut GLint, *mut GLint)
    );
    // SAFETY: every pointer is to a live local of the size the command reads or writes;
    // `p` is a live mapping of the 16-byte buffer while read.
    unsafe {
        let (mut vao, mut b) = (0, [0u32; 2]);
        create_vaos(1, &mut vao);
        create_buffers(2, b.as_mut_ptr());
        let bytes: Vec<u8> = (0..16).collect();
        named_data(b[0], 16, bytes.as_ptr() as *const c_void, gl::STATIC_DRAW);
        named_data(b[1], 16, std::ptr::null(), gl::STATIC_DRAW);
        vao_buffers(
            vao,
            2,
            2,
            b.as_ptr(),
            [8isize, 12].as_ptr(),
            [4, 8].as_ptr(),
        );
        let mut off = 0i64;
        get64(vao, 3, gl::VERTEX_BINDING_OFFSET, &mut off);
        assert_eq!(off, 12);
        vao_buffers(
            vao,
            2,
            2,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
        );
        get64(vao, 3, gl::VERTEX_BINDING_OFFSET, &mut off);
        assert_eq!(off, 0, "a null buffers array resets the bindings");
        copy(b[0], b[1], 4, 0, 8);
        clear_sub(
            b[1],
            gl::R16UI,
            8,
            4,
            gl::RED_INTEGER,
            gl::UNSIGNED_SHORT,
            [0xBEEFu16].as_ptr() as *const c_void,
        );
        let mut out = [0u8; 16];
        get_sub(b[1], 0, 16, out.as_mut_ptr() as *mut c_void);
        assert_eq!(
            out,
            [4, 5, 6, 7, 8, 9, 10, 11, 0xEF, 0xBE, 0xEF, 0xBE, 0, 0, 0, 0]
        );
        assert_eq!(error(), gl::NO_ERROR);
        let p = map(b[1], gl::READ_ONLY);
        let mut q = std::ptr::null_mut();
        pointer(b[1], gl::BUFFER_MAP_POINTER, &mut q);
        assert_eq!(p, q);
        assert_eq!(*(p as *const u8).add(8), 0xEF);
        assert_eq!(unmap(b[1]), 1);
        bind_range(
            gl::UNIFORM_BUFFER,
            0,
            1,
            b.as_ptr(),
            [0isize].as_ptr(),
            [16isize].as_ptr(),
        );
        bind_range(
            gl::UNIFORM_BUFFER,
            0,
            1,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
        );
        bind(gl::COPY_READ_BUFFER, b[0]);
        let mut size = 0i64;
        get_i64(gl::COPY_READ_BUFFER, gl::BUFFER_SIZE, &mut size);
        assert_eq!(size, 16);
        let (mut range, mut prec) = ([0; 2], 0);
        precision(
            gl::FRAGMENT_SHADER,
            gl::HIGH_FLOAT,
            range.as_mut_ptr(),
            &mut prec,
        );
        assert_eq!((range, prec), ([127, 127], 23));
        assert_eq!(error(), gl::NO_ERROR);
        vao_buffers(vao, 0, -1, b.as_ptr(), [0isize].as_ptr(), [0].as_ptr());
        assert_eq!(error(), gl::INVALID_VALUE, "negative count");
    }
}
