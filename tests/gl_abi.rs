//! The GL C ABI as a C program sees it: entry points looked up with
//! `softgl::get_proc_address` and called through their C signatures (a draw read back,
//! error paths and null pointers, no current context, per-thread current contexts,
//! KHR_debug's callback, controls, groups, log and queries, and bindless misuse reported
//! from the sampler's worker threads).

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, SharedContext};

type GLenum = u32;
type GLuint = u32;
type GLint = i32;
type GLsizei = i32;
type GLboolean = u8;
type DebugProc = unsafe extern "system" fn(
    GLenum,
    GLenum,
    GLuint,
    GLenum,
    GLsizei,
    *const c_char,
    *const c_void,
);

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

/// The entry points these tests call.
struct Gl {
    get_error: unsafe extern "system" fn() -> GLenum,
    get_string: unsafe extern "system" fn(GLenum) -> *const u8,
    get_integerv: unsafe extern "system" fn(GLenum, *mut GLint),
    gen_buffers: unsafe extern "system" fn(GLsizei, *mut GLuint),
    delete_buffers: unsafe extern "system" fn(GLsizei, *const GLuint),
    bind_buffer: unsafe extern "system" fn(GLenum, GLuint),
    buffer_data: unsafe extern "system" fn(GLenum, isize, *const c_void, GLenum),
    buffer_sub_data: unsafe extern "system" fn(GLenum, isize, isize, *const c_void),
    gen_vertex_arrays: unsafe extern "system" fn(GLsizei, *mut GLuint),
    bind_vertex_array: unsafe extern "system" fn(GLuint),
    enable_vertex_attrib_array: unsafe extern "system" fn(GLuint),
    vertex_attrib_pointer:
        unsafe extern "system" fn(GLuint, GLint, GLenum, GLboolean, GLsizei, *const c_void),
    create_shader: unsafe extern "system" fn(GLenum) -> GLuint,
    shader_source: unsafe extern "system" fn(GLuint, GLsizei, *const *const c_char, *const GLint),
    compile_shader: unsafe extern "system" fn(GLuint),
    get_shaderiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLint),
    get_shader_info_log: unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut c_char),
    create_program: unsafe extern "system" fn() -> GLuint,
    attach_shader: unsafe extern "system" fn(GLuint, GLuint),
    link_program: unsafe extern "system" fn(GLuint),
    get_programiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLint),
    use_program: unsafe extern "system" fn(GLuint),
    get_uniform_location: unsafe extern "system" fn(GLuint, *const c_char) -> GLint,
    uniform_4f: unsafe extern "system" fn(GLint, f32, f32, f32, f32),
    clear_color: unsafe extern "system" fn(f32, f32, f32, f32),
    clear: unsafe extern "system" fn(u32),
    draw_arrays: unsafe extern "system" fn(GLenum, GLint, GLsizei),
    read_pixels:
        unsafe extern "system" fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void),
    enable: unsafe extern "system" fn(GLenum),
    disable: unsafe extern "system" fn(GLenum),
    is_enabled: unsafe extern "system" fn(GLenum) -> GLboolean,
}

impl Gl {
    fn load() -> Gl {
        Gl {
            get_error: proc!("glGetError" as unsafe extern "system" fn() -> GLenum),
            get_string: proc!("glGetString" as unsafe extern "system" fn(GLenum) -> *const u8),
            get_integerv: proc!("glGetIntegerv" as unsafe extern "system" fn(GLenum, *mut GLint)),
            gen_buffers: proc!("glGenBuffers" as unsafe extern "system" fn(GLsizei, *mut GLuint)),
            delete_buffers: proc!(
                "glDeleteBuffers" as unsafe extern "system" fn(GLsizei, *const GLuint)
            ),
            bind_buffer: proc!("glBindBuffer" as unsafe extern "system" fn(GLenum, GLuint)),
            buffer_data: proc!(
                "glBufferData" as unsafe extern "system" fn(GLenum, isize, *const c_void, GLenum)
            ),
            buffer_sub_data: proc!(
                "glBufferSubData" as unsafe extern "system" fn(GLenum, isize, isize, *const c_void)
            ),
            gen_vertex_arrays: proc!(
                "glGenVertexArrays" as unsafe extern "system" fn(GLsizei, *mut GLuint)
            ),
            bind_vertex_array: proc!("glBindVertexArray" as unsafe extern "system" fn(GLuint)),
            enable_vertex_attrib_array: proc!(
                "glEnableVertexAttribArray" as unsafe extern "system" fn(GLuint)
            ),
            vertex_attrib_pointer: proc!(
                "glVertexAttribPointer"
                    as unsafe extern "system" fn(
                        GLuint,
                        GLint,
                        GLenum,
                        GLboolean,
                        GLsizei,
                        *const c_void,
                    )
            ),
            create_shader: proc!("glCreateShader" as unsafe extern "system" fn(GLenum) -> GLuint),
            shader_source: proc!(
                "glShaderSource"
                    as unsafe extern "system" fn(
                        GLuint,
                        GLsizei,
                        *const *const c_char,
                        *const GLint,
                    )
            ),
            compile_shader: proc!("glCompileShader" as unsafe extern "system" fn(GLuint)),
            get_shaderiv: proc!(
                "glGetShaderiv" as unsafe extern "system" fn(GLuint, GLenum, *mut GLint)
            ),
            get_shader_info_log: proc!(
                "glGetShaderInfoLog"
                    as unsafe extern "system" fn(GLuint, GLsizei, *mut GLsizei, *mut c_char)
            ),
            create_program: proc!("glCreateProgram" as unsafe extern "system" fn() -> GLuint),
            attach_shader: proc!("glAttachShader" as unsafe extern "system" fn(GLuint, GLuint)),
            link_program: proc!("glLinkProgram" as unsafe extern "system" fn(GLuint)),
            get_programiv: proc!(
                "glGetProgramiv" as unsafe extern "system" fn(GLuint, GLenum, *mut GLint)
            ),
            use_program: proc!("glUseProgram" as unsafe extern "system" fn(GLuint)),
            get_uniform_location: proc!(
                "glGetUniformLocation" as unsafe extern "system" fn(GLuint, *const c_char) -> GLint
            ),
            uniform_4f: proc!(
                "glUniform4f" as unsafe extern "system" fn(GLint, f32, f32, f32, f32)
            ),
            clear_color: proc!("glClearColor" as unsafe extern "system" fn(f32, f32, f32, f32)),
            clear: proc!("glClear" as unsafe extern "system" fn(u32)),
            draw_arrays: proc!("glDrawArrays" as unsafe extern "system" fn(GLenum, GLint, GLsizei)),
            read_pixels: proc!(
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
            ),
            enable: proc!("glEnable" as unsafe extern "system" fn(GLenum)),
            disable: proc!("glDisable" as unsafe extern "system" fn(GLenum)),
            is_enabled: proc!("glIsEnabled" as unsafe extern "system" fn(GLenum) -> GLboolean),
        }
    }

    fn error(&self) -> GLenum {
        // SAFETY: no arguments.
        unsafe { (self.get_error)() }
    }
}

fn current(w: u32, h: u32) -> SharedContext {
    let ctx: SharedContext = Arc::new(Mutex::new(Context::new(w, h)));
    make_current(Some(ctx.clone()));
    ctx
}

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const FS: &str = "#version 330\nuniform vec4 colour;\nout vec4 c;\nvoid main() { c = colour; }\n";

/// Compiles and links VS + `fs` through the C entry points; returns the program.
fn build_program(g: &Gl, fs: &str) -> GLuint {
    // SAFETY: every pointer passed is to a live local of the size the command expects.
    unsafe {
        let program = (g.create_program)();
        for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, fs)] {
            let s = (g.create_shader)(ty);
            // Explicit lengths, no NUL: the length array is honoured.
            let ptrs = [src.as_ptr() as *const c_char];
            let lens = [src.len() as GLint];
            (g.shader_source)(s, 1, ptrs.as_ptr(), lens.as_ptr());
            (g.compile_shader)(s);
            let mut ok = 0;
            (g.get_shaderiv)(s, gl::COMPILE_STATUS, &mut ok);
            let mut log = [0 as c_char; 1024];
            let mut len = 0;
            (g.get_shader_info_log)(s, log.len() as GLsizei, &mut len, log.as_mut_ptr());
            let log = CStr::from_ptr(log.as_ptr()).to_string_lossy();
            assert_eq!(len as usize, log.len());
            assert_ne!(ok, 0, "compile failed: {log}");
            (g.attach_shader)(program, s);
        }
        (g.link_program)(program);
        let mut ok = 0;
        (g.get_programiv)(program, gl::LINK_STATUS, &mut ok);
        assert_ne!(ok, 0, "link failed");
        (g.use_program)(program);
        program
    }
}

/// A fullscreen triangle in a fresh VAO/VBO.
fn draw_fullscreen(g: &Gl) {
    let verts: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    // SAFETY: pointers to live locals of the stated sizes.
    unsafe {
        let mut vao = 0;
        (g.gen_vertex_arrays)(1, &mut vao);
        (g.bind_vertex_array)(vao);
        let mut vbo = 0;
        (g.gen_buffers)(1, &mut vbo);
        (g.bind_buffer)(gl::ARRAY_BUFFER, vbo);
        (g.buffer_data)(
            gl::ARRAY_BUFFER,
            std::mem::size_of_val(&verts) as isize,
            verts.as_ptr() as *const c_void,
            gl::STATIC_DRAW,
        );
        (g.enable_vertex_attrib_array)(0);
        (g.vertex_attrib_pointer)(0, 2, gl::FLOAT, 0, 8, std::ptr::null());
        (g.draw_arrays)(gl::TRIANGLES, 0, 3);
    }
}

fn read_rgba(g: &Gl, w: i32, h: i32) -> Vec<u8> {
    let mut px = vec![0u8; (w * h * 4) as usize];
    // SAFETY: `px` holds w×h RGBA8 pixels (pack alignment 4 divides a 4-byte pixel row).
    unsafe {
        (g.read_pixels)(
            0,
            0,
            w,
            h,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            px.as_mut_ptr() as *mut c_void,
        )
    };
    px
}

#[test]
fn draw_and_read_back_through_the_c_abi() {
    let _ctx = current(8, 8);
    let g = Gl::load();
    // SAFETY: GetString returns a NUL-terminated string or null.
    let vendor = unsafe { CStr::from_ptr((g.get_string)(gl::VENDOR) as *const c_char) };
    assert_eq!(vendor.to_str().unwrap(), "softgl");
    // SAFETY: as above.
    let renderer = unsafe { CStr::from_ptr((g.get_string)(gl::RENDERER) as *const c_char) };
    let renderer = renderer.to_str().unwrap();
    assert!(
        renderer.starts_with("softgl (") && renderer.contains("thread"),
        "{renderer}"
    );

    let program = build_program(&g, FS);
    let name = CString::new("colour").unwrap();
    // SAFETY: NUL-terminated name; plain values otherwise.
    unsafe {
        let loc = (g.get_uniform_location)(program, name.as_ptr());
        assert!(loc >= 0);
        (g.uniform_4f)(loc, 0.0, 1.0, 0.0, 1.0);
        (g.clear_color)(0.0, 0.0, 1.0, 1.0);
        (g.clear)(gl::COLOR_BUFFER_BIT);
    }
    draw_fullscreen(&g);
    assert_eq!(g.error(), gl::NO_ERROR);
    let px = read_rgba(&g, 8, 8);
    assert!(
        px.chunks(4).all(|p| p == [0, 255, 0, 255]),
        "{:?}",
        &px[..8]
    );
    assert_eq!(g.error(), gl::NO_ERROR);
    make_current(None);
}

#[test]
fn error_paths_and_null_pointers_are_gl_errors() {
    let _ctx = current(4, 4);
    let g = Gl::load();
    // SAFETY: every call passes either null (the point of the test) or valid locals.
    unsafe {
        let mut b = 0u32;
        (g.gen_buffers)(-1, &mut b);
        assert_eq!(g.error(), gl::INVALID_VALUE, "GenBuffers(-1)");
        (g.gen_buffers)(2, std::ptr::null_mut());
        assert_eq!(g.error(), gl::INVALID_VALUE, "GenBuffers(2, NULL)");
        (g.delete_buffers)(1, std::ptr::null());
        assert_eq!(g.error(), gl::INVALID_VALUE, "DeleteBuffers(1, NULL)");
        (g.delete_buffers)(0, std::ptr::null());
        assert_eq!(g.error(), gl::NO_ERROR, "DeleteBuffers(0, NULL) is fine");

        (g.gen_buffers)(1, &mut b);
        (g.bind_buffer)(gl::ARRAY_BUFFER, b);
        (g.buffer_data)(gl::ARRAY_BUFFER, 16, std::ptr::null(), gl::STATIC_DRAW);
        assert_eq!(
            g.error(),
            gl::NO_ERROR,
            "BufferData with NULL data allocates"
        );
        (g.buffer_data)(gl::ARRAY_BUFFER, -1, std::ptr::null(), gl::STATIC_DRAW);
        assert_eq!(g.error(), gl::INVALID_VALUE, "BufferData size -1");
        (g.buffer_sub_data)(gl::ARRAY_BUFFER, 0, 8, std::ptr::null());
        assert_eq!(g.error(), gl::INVALID_VALUE, "BufferSubData NULL data");
        (g.buffer_sub_data)(gl::ARRAY_BUFFER, 0, -4, std::ptr::null());
        assert_eq!(g.error(), gl::INVALID_VALUE, "BufferSubData size -4");
        (g.bind_buffer)(0x1234, b);
        assert_eq!(g.error(), gl::INVALID_ENUM, "BindBuffer bad target");

        let s = (g.create_shader)(gl::VERTEX_SHADER);
        (g.shader_source)(s, -1, std::ptr::null(), std::ptr::null());
        assert_eq!(g.error(), gl::INVALID_VALUE, "ShaderSource count -1");
        let strings = [std::ptr::null::<c_char>()];
        (g.shader_source)(s, 1, strings.as_ptr(), std::ptr::null());
        assert_eq!(g.error(), gl::INVALID_VALUE, "ShaderSource NULL string");
        let mut len = 7;
        (g.get_shader_info_log)(s, -1, &mut len, std::ptr::null_mut());
        assert_eq!(g.error(), gl::INVALID_VALUE, "GetShaderInfoLog bufSize -1");
        (g.get_shader_info_log)(s, 0, &mut len, std::ptr::null_mut());
        assert_eq!((g.get_error)(), gl::NO_ERROR);
        assert_eq!(len, 0, "nothing written into a zero-size buffer");
        let p = (g.create_program)();
        assert_eq!((g.get_uniform_location)(p, std::ptr::null()), -1);
        assert_eq!(g.error(), gl::INVALID_VALUE, "GetUniformLocation NULL name");

        // Out-pointers that are null are skipped, never written.
        (g.get_integerv)(gl::VIEWPORT, std::ptr::null_mut());
        assert_eq!(g.error(), gl::NO_ERROR);
        (g.read_pixels)(
            0,
            0,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null_mut(),
        );
        assert_eq!(g.error(), gl::INVALID_VALUE, "ReadPixels into NULL");
        (g.read_pixels)(
            0,
            0,
            -1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            std::ptr::null_mut(),
        );
        assert_eq!(g.error(), gl::INVALID_VALUE, "ReadPixels width -1");
        assert!((g.get_string)(0x1234).is_null());
        assert_eq!(g.error(), gl::INVALID_ENUM);
    }
    make_current(None);
}

#[test]
fn lookup_knows_every_gl_command_and_nothing_else() {
    assert!(!get_proc_address("glDrawArrays").is_null());
    assert!(!get_proc_address("glGetTextureHandleARB").is_null());
    assert!(!get_proc_address("glDebugMessageCallback").is_null());
    // A registry alias of an implemented command resolves to the same entry point.
    assert_eq!(
        get_proc_address("glDebugMessageCallbackKHR"),
        get_proc_address("glDebugMessageCallback")
    );
    // Commands of GL 1.0-4.6 that softgl lacks resolve too (they answer
    // GL_INVALID_OPERATION, src/api/gl/mod.rs tests), and are listed as missing.
    let missing = softgl::missing_entry_points();
    for lacking in ["glBegin", "glSpecializeShader"] {
        assert!(!get_proc_address(lacking).is_null(), "{lacking}");
        assert!(missing.iter().any(|m| m.0 == lacking), "{lacking}");
    }
    assert!(!missing.iter().any(|m| m.0 == "glDrawArrays"));
    assert!(!missing.iter().any(|m| m.0 == "glPatchParameteri"));
    // An extension's alias of an implemented core command resolves to it.
    assert_eq!(
        get_proc_address("glBeginConditionalRenderNV"),
        get_proc_address("glBeginConditionalRender")
    );
    // Names that are no GL command, and extension commands of extensions softgl does not
    // implement, are absent.
    for absent in [
        "glNotAGlFunction",
        "",
        "glPathCommandsNV",
        "glDrawTextureNV",
    ] {
        assert!(get_proc_address(absent).is_null(), "{absent}");
    }
    let names = softgl::api::gl::entry_point_names();
    assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
    assert!(names.iter().all(|n| !get_proc_address(n).is_null()));
}

#[test]
fn without_a_current_context_calls_do_nothing() {
    make_current(None);
    assert!(softgl::current_context().is_none());
    let g = Gl::load();
    // SAFETY: valid locals; the point is that nothing is touched.
    unsafe {
        assert_eq!((g.get_error)(), 0);
        let mut b = [0xdead_beefu32; 2];
        (g.gen_buffers)(2, b.as_mut_ptr());
        assert_eq!(b, [0xdead_beef; 2], "nothing written");
        assert!((g.get_string)(gl::VENDOR).is_null());
        assert_eq!((g.create_program)(), 0);
        (g.draw_arrays)(gl::TRIANGLES, 0, 3);
    }
    // With a context current again the earlier calls left no trace.
    let ctx = current(2, 2);
    assert_eq!(g.error(), gl::NO_ERROR);
    assert!(ctx.lock().unwrap().debug_messages().is_empty());
    make_current(None);
}

#[test]
fn current_context_is_per_thread() {
    let a = current(2, 2);
    let g = Gl::load();
    let b: SharedContext = Arc::new(Mutex::new(Context::new(2, 2)));
    let b2 = b.clone();
    std::thread::spawn(move || {
        assert!(softgl::current_context().is_none(), "a new thread has none");
        make_current(Some(b2));
        let g = Gl::load();
        // SAFETY: a bad enum, no pointers.
        unsafe { (g.enable)(0x1234) };
        make_current(None);
    })
    .join()
    .unwrap();
    // The error went to context B, not to A (current here).
    assert_eq!(g.error(), gl::NO_ERROR);
    assert_eq!(b.lock().unwrap().get_error(), gl::INVALID_ENUM);
    assert!(Arc::ptr_eq(&softgl::current_context().unwrap(), &a));
    make_current(None);
}

/// What the debug callback saw.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    source: GLenum,
    ty: GLenum,
    id: GLuint,
    severity: GLenum,
    text: String,
}

unsafe extern "system" fn collect(
    source: GLenum,
    ty: GLenum,
    id: GLuint,
    severity: GLenum,
    length: GLsizei,
    message: *const c_char,
    user: *const c_void,
) {
    // SAFETY: `user` is the `Mutex<Vec<Seen>>` the test registered and keeps alive; the
    // message is `length` bytes plus a NUL.
    let (sink, text) = unsafe {
        let sink = &*(user as *const Mutex<Vec<Seen>>);
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        (sink, text)
    };
    assert_eq!(text.len(), length as usize);
    sink.lock().unwrap().push(Seen {
        source,
        ty,
        id,
        severity,
        text,
    });
}

type Callback = unsafe extern "system" fn(Option<DebugProc>, *const c_void);
type Insert = unsafe extern "system" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const c_char);
type Control = unsafe extern "system" fn(GLenum, GLenum, GLenum, GLsizei, *const GLuint, GLboolean);
type PushGroup = unsafe extern "system" fn(GLenum, GLuint, GLsizei, *const c_char);
type GetLog = unsafe extern "system" fn(
    GLuint,
    GLsizei,
    *mut GLenum,
    *mut GLenum,
    *mut GLuint,
    *mut GLenum,
    *mut GLsizei,
    *mut c_char,
) -> GLuint;

#[test]
fn khr_debug_callback_controls_groups_and_log() {
    let _ctx = current(4, 4);
    let g = Gl::load();
    let callback = proc!("glDebugMessageCallback" as Callback);
    let insert = proc!("glDebugMessageInsert" as Insert);
    let control = proc!("glDebugMessageControl" as Control);
    let push = proc!("glPushDebugGroup" as PushGroup);
    let pop = proc!("glPopDebugGroup" as unsafe extern "system" fn());
    let get_log = proc!("glGetDebugMessageLog" as GetLog);
    let get_pointerv =
        proc!("glGetPointerv" as unsafe extern "system" fn(GLenum, *mut *mut c_void));
    let sink: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
    let user = &sink as *const Mutex<Vec<Seen>> as *const c_void;
    let int = |pname| {
        let mut v = -1;
        // SAFETY: one GLint.
        unsafe { (g.get_integerv)(pname, &mut v) };
        v
    };
    // SAFETY: the callback and its user parameter stay valid until unregistered below;
    // strings are NUL-terminated or passed with their length.
    unsafe {
        assert_eq!((g.is_enabled)(gl::DEBUG_OUTPUT), 1);
        callback(Some(collect), user);
        let mut f = std::ptr::null_mut();
        get_pointerv(gl::DEBUG_CALLBACK_FUNCTION, &mut f);
        assert_eq!(f as usize, collect as DebugProc as usize);
        get_pointerv(gl::DEBUG_CALLBACK_USER_PARAM, &mut f);
        assert_eq!(f as *const c_void, user);

        // A GL error reaches the callback synchronously.
        (g.bind_buffer)(0x1234, 0);
        let seen = std::mem::take(&mut *sink.lock().unwrap());
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(
            (seen[0].source, seen[0].ty, seen[0].id, seen[0].severity),
            (
                gl::DEBUG_SOURCE_API,
                gl::DEBUG_TYPE_ERROR,
                gl::INVALID_ENUM,
                gl::DEBUG_SEVERITY_HIGH
            )
        );
        assert_eq!(g.error(), gl::INVALID_ENUM);

        // Application messages, with an explicit length and NUL-terminated.
        let text = b"hello softgl";
        insert(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            42,
            gl::DEBUG_SEVERITY_NOTIFICATION,
            5,
            text.as_ptr() as *const c_char,
        );
        let seen = std::mem::take(&mut *sink.lock().unwrap());
        assert_eq!(
            seen,
            vec![Seen {
                source: gl::DEBUG_SOURCE_APPLICATION,
                ty: gl::DEBUG_TYPE_MARKER,
                id: 42,
                severity: gl::DEBUG_SEVERITY_NOTIFICATION,
                text: "hello".into()
            }]
        );
        insert(
            gl::DEBUG_SOURCE_API,
            gl::DEBUG_TYPE_MARKER,
            1,
            gl::DEBUG_SEVERITY_HIGH,
            -1,
            c"x".as_ptr(),
        );
        assert_eq!(
            g.error(),
            gl::INVALID_ENUM,
            "only APPLICATION/THIRD_PARTY insert"
        );
        sink.lock().unwrap().clear();

        // Low severity is off by default; controls turn it on, and ids select.
        let low = |id: GLuint| {
            insert(
                gl::DEBUG_SOURCE_APPLICATION,
                gl::DEBUG_TYPE_OTHER,
                id,
                gl::DEBUG_SEVERITY_LOW,
                -1,
                c"low".as_ptr(),
            )
        };
        low(1);
        assert!(sink.lock().unwrap().is_empty(), "LOW is disabled initially");
        control(
            gl::DONT_CARE,
            gl::DONT_CARE,
            gl::DEBUG_SEVERITY_LOW,
            0,
            std::ptr::null(),
            1,
        );
        low(2);
        assert_eq!(sink.lock().unwrap().len(), 1);
        let ids = [3u32];
        control(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_OTHER,
            gl::DONT_CARE,
            1,
            ids.as_ptr(),
            0,
        );
        low(3);
        low(4);
        let seen: Vec<u32> = sink.lock().unwrap().drain(..).map(|s| s.id).collect();
        assert_eq!(seen, vec![2, 4], "id 3 disabled");
        control(
            gl::DONT_CARE,
            gl::DONT_CARE,
            gl::DEBUG_SEVERITY_LOW,
            1,
            ids.as_ptr(),
            0,
        );
        assert_eq!(g.error(), gl::INVALID_OPERATION, "ids need source and type");
        control(
            gl::DONT_CARE,
            gl::DONT_CARE,
            gl::DONT_CARE,
            -1,
            ids.as_ptr(),
            0,
        );
        assert_eq!(g.error(), gl::INVALID_VALUE);
        sink.lock().unwrap().clear();

        // Groups: push/pop messages, controls scoped to the group.
        assert_eq!(int(gl::DEBUG_GROUP_STACK_DEPTH), 1);
        push(gl::DEBUG_SOURCE_APPLICATION, 7, -1, c"pass".as_ptr());
        assert_eq!(int(gl::DEBUG_GROUP_STACK_DEPTH), 2);
        control(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DONT_CARE,
            gl::DONT_CARE,
            0,
            std::ptr::null(),
            0,
        );
        insert(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            9,
            gl::DEBUG_SEVERITY_HIGH,
            -1,
            c"muted".as_ptr(),
        );
        pop();
        insert(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            10,
            gl::DEBUG_SEVERITY_HIGH,
            -1,
            c"heard".as_ptr(),
        );
        let seen = std::mem::take(&mut *sink.lock().unwrap());
        let kinds: Vec<(GLenum, GLuint, &str)> =
            seen.iter().map(|s| (s.ty, s.id, s.text.as_str())).collect();
        assert_eq!(
            kinds,
            vec![
                (gl::DEBUG_TYPE_PUSH_GROUP, 7, "pass"),
                (gl::DEBUG_TYPE_POP_GROUP, 7, "pass"),
                (gl::DEBUG_TYPE_MARKER, 10, "heard"),
            ]
        );
        pop();
        assert_eq!(g.error(), gl::STACK_UNDERFLOW);
        sink.lock().unwrap().clear();

        // Without a callback, messages go to the log.
        callback(None, std::ptr::null());
        let mut f = std::ptr::dangling_mut::<c_void>();
        get_pointerv(gl::DEBUG_CALLBACK_FUNCTION, &mut f);
        assert!(f.is_null());
        assert!(int(gl::MAX_DEBUG_MESSAGE_LENGTH) >= 1);
        assert!(int(gl::MAX_DEBUG_LOGGED_MESSAGES) >= 1);
        assert_eq!(int(gl::DEBUG_LOGGED_MESSAGES), 0);
        for (id, text) in [(1, c"first"), (2, c"second message")] {
            insert(
                gl::DEBUG_SOURCE_THIRD_PARTY,
                gl::DEBUG_TYPE_OTHER,
                id,
                gl::DEBUG_SEVERITY_MEDIUM,
                -1,
                text.as_ptr(),
            );
        }
        assert_eq!(int(gl::DEBUG_LOGGED_MESSAGES), 2);
        assert_eq!(int(gl::DEBUG_NEXT_LOGGED_MESSAGE_LENGTH), 6);
        let mut ids = [0u32; 2];
        let mut lens = [0i32; 2];
        let mut buf = [0 as c_char; 10];
        // Only the first message fits in 10 bytes.
        let n = get_log(
            2,
            buf.len() as GLsizei,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            ids.as_mut_ptr(),
            std::ptr::null_mut(),
            lens.as_mut_ptr(),
            buf.as_mut_ptr(),
        );
        assert_eq!(n, 1);
        assert_eq!((ids[0], lens[0]), (1, 6));
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "first");
        let n = get_log(
            2,
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            ids.as_mut_ptr(),
            std::ptr::null_mut(),
            lens.as_mut_ptr(),
            std::ptr::null_mut(),
        );
        assert_eq!(
            (n, ids[0], lens[0]),
            (1, 2, 15),
            "no text buffer: no size limit"
        );
        assert_eq!(int(gl::DEBUG_LOGGED_MESSAGES), 0);

        // DEBUG_OUTPUT off: no messages at all.
        (g.disable)(gl::DEBUG_OUTPUT);
        (g.bind_buffer)(0x1234, 0);
        assert_eq!(g.error(), gl::INVALID_ENUM, "errors are still recorded");
        assert_eq!(int(gl::DEBUG_LOGGED_MESSAGES), 0);
        (g.enable)(gl::DEBUG_OUTPUT);
    }
    make_current(None);
}

/// Bindless misuse found by the sampler's worker threads (a non-resident handle) reaches
/// the application's callback by the time the next GL call returns.
#[test]
fn worker_thread_messages_reach_the_callback() {
    let _ctx = current(4, 4);
    let g = Gl::load();
    let callback = proc!("glDebugMessageCallback" as Callback);
    let gen_textures = proc!("glGenTextures" as unsafe extern "system" fn(GLsizei, *mut GLuint));
    let bind_texture = proc!("glBindTexture" as unsafe extern "system" fn(GLenum, GLuint));
    let tex_image = proc!(
        "glTexImage2D"
            as unsafe extern "system" fn(
                GLenum,
                GLint,
                GLint,
                GLsizei,
                GLsizei,
                GLint,
                GLenum,
                GLenum,
                *const c_void,
            )
    );
    let tex_parameteri =
        proc!("glTexParameteri" as unsafe extern "system" fn(GLenum, GLenum, GLint));
    let get_handle = proc!("glGetTextureHandleARB" as unsafe extern "system" fn(GLuint) -> u64);
    let uniform_handle = proc!("glUniformHandleui64ARB" as unsafe extern "system" fn(GLint, u64));
    let sink: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
    let program = build_program(
        &g,
        "#version 330\n#extension GL_ARB_bindless_texture : require\n\
         layout(bindless_sampler) uniform sampler2D tex;\nout vec4 c;\n\
         void main() { c = texture(tex, vec2(0.5)); }\n",
    );
    // SAFETY: valid locals and a callback/user pair that outlives its registration.
    unsafe {
        callback(
            Some(collect),
            &sink as *const Mutex<Vec<Seen>> as *const c_void,
        );
        let mut tex = 0;
        gen_textures(1, &mut tex);
        bind_texture(gl::TEXTURE_2D, tex);
        let texels = [255u8, 0, 0, 255];
        tex_image(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as GLint,
            1,
            1,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            texels.as_ptr() as *const c_void,
        );
        tex_parameteri(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as GLint);
        let h = get_handle(tex);
        assert_ne!(h, 0);
        let name = CString::new("tex").unwrap();
        let loc = (g.get_uniform_location)(program, name.as_ptr());
        uniform_handle(loc, h);
        assert_eq!(g.error(), gl::NO_ERROR);
        // Not made resident: the draw samples zeros and the workers report it.
        draw_fullscreen(&g);
        let px = read_rgba(&g, 4, 4);
        assert!(px.iter().all(|&b| b == 0));
        let seen = sink.lock().unwrap().clone();
        let hex = format!("0x{h:016x}");
        assert!(
            seen.iter().any(|s| s.text.contains(&hex)
                && s.ty == gl::DEBUG_TYPE_UNDEFINED_BEHAVIOR
                && s.severity == gl::DEBUG_SEVERITY_HIGH),
            "{seen:?}"
        );
        callback(None, std::ptr::null());
    }
    make_current(None);
}

type Label = unsafe extern "system" fn(GLenum, GLuint, GLsizei, *const c_char);
type GetLabel = unsafe extern "system" fn(GLenum, GLuint, GLsizei, *mut GLsizei, *mut c_char);

#[test]
fn object_labels_and_group_depth_limits() {
    let _ctx = current(2, 2);
    let g = Gl::load();
    let label = proc!("glObjectLabel" as Label);
    let get_label = proc!("glGetObjectLabel" as GetLabel);
    let ptr_label = proc!(
        "glObjectPtrLabel" as unsafe extern "system" fn(*const c_void, GLsizei, *const c_char)
    );
    let push = proc!("glPushDebugGroup" as PushGroup);
    let pop = proc!("glPopDebugGroup" as unsafe extern "system" fn());
    let int = |pname| {
        let mut v = -1;
        // SAFETY: one GLint.
        unsafe { (g.get_integerv)(pname, &mut v) };
        v
    };
    // SAFETY: valid locals and NUL-terminated strings throughout.
    unsafe {
        let mut b = 0;
        (g.gen_buffers)(1, &mut b);
        label(gl::BUFFER, b, -1, c"vertices".as_ptr());
        assert_eq!(
            g.error(),
            gl::INVALID_VALUE,
            "generated but never bound: no object"
        );
        (g.bind_buffer)(gl::ARRAY_BUFFER, b);
        label(gl::BUFFER, b, -1, c"vertices".as_ptr());
        assert_eq!(g.error(), gl::NO_ERROR);
        let mut buf = [0 as c_char; 5];
        let mut len = -1;
        get_label(
            gl::BUFFER,
            b,
            buf.len() as GLsizei,
            &mut len,
            buf.as_mut_ptr(),
        );
        assert_eq!(len, 4, "truncated to bufSize - 1");
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "vert");
        let mut big = [0 as c_char; 64];
        get_label(gl::BUFFER, b, 64, &mut len, big.as_mut_ptr());
        assert_eq!(CStr::from_ptr(big.as_ptr()).to_str().unwrap(), "vertices");
        label(gl::BUFFER, b, 0, c"".as_ptr());
        get_label(gl::BUFFER, b, 64, &mut len, big.as_mut_ptr());
        assert_eq!(len, 0, "an empty label removes it");
        label(0x1234, b, -1, c"x".as_ptr());
        assert_eq!(g.error(), gl::INVALID_ENUM);
        let p = (g.create_program)();
        label(gl::PROGRAM, p, 3, c"prog-ignored".as_ptr());
        get_label(gl::PROGRAM, p, 64, &mut len, big.as_mut_ptr());
        assert_eq!(CStr::from_ptr(big.as_ptr()).to_str().unwrap(), "pro");
        let long = CString::new("x".repeat(int(gl::MAX_LABEL_LENGTH) as usize)).unwrap();
        label(gl::PROGRAM, p, -1, long.as_ptr());
        assert_eq!(
            g.error(),
            gl::INVALID_VALUE,
            "label as long as MAX_LABEL_LENGTH"
        );
        ptr_label(&b as *const u32 as *const c_void, -1, c"x".as_ptr());
        assert_eq!(g.error(), gl::INVALID_VALUE, "not a sync object");

        // The group stack holds MAX_DEBUG_GROUP_STACK_DEPTH entries, the default included.
        let max = int(gl::MAX_DEBUG_GROUP_STACK_DEPTH);
        assert!(max >= 64);
        for _ in 1..max {
            push(gl::DEBUG_SOURCE_APPLICATION, 1, -1, c"g".as_ptr());
        }
        assert_eq!(g.error(), gl::NO_ERROR);
        assert_eq!(int(gl::DEBUG_GROUP_STACK_DEPTH), max);
        push(gl::DEBUG_SOURCE_APPLICATION, 1, -1, c"g".as_ptr());
        assert_eq!(g.error(), gl::STACK_OVERFLOW);
        push(gl::DEBUG_SOURCE_API, 1, -1, c"g".as_ptr());
        assert_eq!(g.error(), gl::INVALID_ENUM, "groups are the application's");
        for _ in 1..max {
            pop();
        }
        assert_eq!(g.error(), gl::NO_ERROR);
        assert_eq!(int(gl::DEBUG_GROUP_STACK_DEPTH), 1);
    }
    make_current(None);
}

#[test]
fn uniform_block_reflection_places_members_in_the_buffer() {
    // The piglit shader_runner way of filling a UBO: glGetUniformIndices and
    // glGetActiveUniformsiv find each member's byte offset, the data goes in through a
    // mapping, and the draw reads it back (GL 4.5 core §7.3.1.1, §7.6.2.2 std140).
    let _ctx = current(4, 4);
    let g = Gl::load();
    let fs = "#version 330\nstruct S { vec2 pad; vec4 colour; };\n\
              layout(std140) uniform Block { float f; S s; mat2 m; float arr[3]; } blk;\n\
              out vec4 c;\nvoid main() { c = blk.s.colour * blk.f + vec4(blk.arr[2] + blk.m[1][0]); }\n";
    let p = build_program(&g, fs);
    let get_indices = proc!(
        "glGetUniformIndices"
            as unsafe extern "system" fn(GLuint, GLsizei, *const *const c_char, *mut GLuint)
    );
    let get_uniformsiv = proc!(
        "glGetActiveUniformsiv"
            as unsafe extern "system" fn(GLuint, GLsizei, *const GLuint, GLenum, *mut GLint)
    );
    let get_name = proc!(
        "glGetActiveUniformName"
            as unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut c_char)
    );
    let block_iv = proc!(
        "glGetActiveUniformBlockiv"
            as unsafe extern "system" fn(GLuint, GLuint, GLenum, *mut GLint)
    );
    let block_name = proc!(
        "glGetActiveUniformBlockName"
            as unsafe extern "system" fn(GLuint, GLuint, GLsizei, *mut GLsizei, *mut c_char)
    );
    let bind_base = proc!("glBindBufferBase" as unsafe extern "system" fn(GLenum, GLuint, GLuint));
    let names = [
        "Block.f",
        "Block.s.colour",
        "Block.m",
        "Block.arr",
        "Block.nope",
        "Block.arr[0]",
    ];
    let cnames: Vec<CString> = names.iter().map(|n| CString::new(*n).unwrap()).collect();
    let ptrs: Vec<*const c_char> = cnames.iter().map(|c| c.as_ptr()).collect();
    let mut idx = [0u32; 6];
    // SAFETY: every pointer is to a live local of the size the command expects.
    unsafe {
        let mut n = 0;
        (g.get_programiv)(p, gl::ACTIVE_UNIFORMS, &mut n);
        // The default block's none; Block: f, s.pad, s.colour, m, arr[0].
        assert_eq!(n, 5);
        (get_indices)(p, 6, ptrs.as_ptr(), idx.as_mut_ptr());
        assert_eq!(idx[4], gl::INVALID_INDEX);
        assert_eq!(idx[3], idx[5], "arr and arr[0] name the same uniform");
        assert!(idx[..4].iter().all(|&i| i < 5), "{idx:?}");
        let q = |pname: GLenum| {
            let mut v = [7i32; 4];
            (get_uniformsiv)(p, 4, idx.as_ptr(), pname, v.as_mut_ptr());
            v
        };
        // std140: f at 0, s.pad at 16 (struct aligned to 16), s.colour at 32, m at 48
        // (two vec2 columns of stride 16), arr at 80 (stride 16).
        assert_eq!(q(gl::UNIFORM_OFFSET), [0, 32, 48, 80]);
        assert_eq!(q(gl::UNIFORM_BLOCK_INDEX), [0; 4]);
        assert_eq!(
            q(gl::UNIFORM_TYPE),
            [
                gl::FLOAT as i32,
                gl::FLOAT_VEC4 as i32,
                gl::FLOAT_MAT2 as i32,
                gl::FLOAT as i32
            ]
        );
        assert_eq!(q(gl::UNIFORM_SIZE), [1, 1, 1, 3]);
        assert_eq!(q(gl::UNIFORM_ARRAY_STRIDE), [0, 0, 0, 16]);
        assert_eq!(q(gl::UNIFORM_MATRIX_STRIDE), [0, 0, 16, 0]);
        assert_eq!(q(gl::UNIFORM_IS_ROW_MAJOR), [0; 4]);
        assert_eq!(
            q(gl::UNIFORM_NAME_LENGTH)[1],
            "Block.s.colour".len() as i32 + 1
        );
        assert_eq!(g.error(), gl::NO_ERROR);
        // Errors write nothing.
        let bad = [idx[0], 99];
        let mut v = [7i32; 2];
        (get_uniformsiv)(p, 2, bad.as_ptr(), gl::UNIFORM_OFFSET, v.as_mut_ptr());
        assert_eq!((g.error(), v), (gl::INVALID_VALUE, [7, 7]));
        (get_uniformsiv)(
            p,
            1,
            idx.as_ptr(),
            gl::UNIFORM_BLOCK_DATA_SIZE,
            v.as_mut_ptr(),
        );
        assert_eq!((g.error(), v), (gl::INVALID_ENUM, [7, 7]));
        let mut buf = [0 as c_char; 32];
        let mut len = 0;
        (get_name)(p, idx[1], 32, &mut len, buf.as_mut_ptr());
        assert_eq!(
            CStr::from_ptr(buf.as_ptr()).to_str().unwrap(),
            "Block.s.colour"
        );
        (block_name)(p, 0, 32, &mut len, buf.as_mut_ptr());
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "Block");
        let mut count = 0;
        (block_iv)(p, 0, gl::UNIFORM_BLOCK_ACTIVE_UNIFORMS, &mut count);
        assert_eq!(count, 5);
        let mut members = [0i32; 5];
        (block_iv)(
            p,
            0,
            gl::UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES,
            members.as_mut_ptr(),
        );
        assert_eq!(members, [0, 1, 2, 3, 4]);
        let mut size = 0;
        (block_iv)(p, 0, gl::UNIFORM_BLOCK_DATA_SIZE, &mut size);
        assert_eq!(size, 128);
        let mut fs_ref = 0;
        (block_iv)(
            p,
            0,
            gl::UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER,
            &mut fs_ref,
        );
        assert_eq!(fs_ref, 1);

        // Fill the block at the reflected offsets and draw.
        let offs = q(gl::UNIFORM_OFFSET);
        let mut data = vec![0u8; size as usize];
        let mut put = |off: i32, v: &[f32]| {
            for (k, x) in v.iter().enumerate() {
                let o = off as usize + 4 * k;
                data[o..o + 4].copy_from_slice(&x.to_ne_bytes());
            }
        };
        put(offs[0], &[0.5]);
        put(offs[1], &[1.0, 0.5, 0.0, 1.0]);
        put(offs[2] + 16, &[0.125]); // m[1][0]
        put(offs[3] + 32, &[0.25]); // arr[2]
        let mut ubo = 0;
        (g.gen_buffers)(1, &mut ubo);
        (g.bind_buffer)(gl::UNIFORM_BUFFER, ubo);
        (g.buffer_data)(
            gl::UNIFORM_BUFFER,
            size as isize,
            data.as_ptr() as *const c_void,
            gl::STATIC_DRAW,
        );
        (bind_base)(gl::UNIFORM_BUFFER, 0, ubo);
    }
    draw_fullscreen(&g);
    let px = read_rgba(&g, 4, 4);
    // 0.5 * (1, 0.5, 0, 1) + 0.375 = (0.875, 0.625, 0.375, 0.875).
    assert_eq!(&px[..4], &[223, 159, 96, 223]);
    assert_eq!(g.error(), gl::NO_ERROR);
}

#[test]
fn buffer_sub_data_keeps_a_persistent_mapping_coherent() {
    // A persistently mapped UBO: draw (queued), glBufferSubData, then a write through the
    // mapping and a second draw. The mapping must still alias the store the second draw
    // reads (GL 4.5 core §6.2: the pointer stays valid while mapped), so the second draw
    // shows the pointer's write, not the BufferSubData value.
    let _ctx = current(4, 4);
    let g = Gl::load();
    let fs = "#version 330\nlayout(std140) uniform B { vec4 colour; };\nout vec4 c;\n\
              void main() { c = colour; }\n";
    build_program(&g, fs);
    let storage =
        proc!("glBufferStorage" as unsafe extern "system" fn(GLenum, isize, *const c_void, u32));
    let map_range = proc!(
        "glMapBufferRange" as unsafe extern "system" fn(GLenum, isize, isize, u32) -> *mut c_void
    );
    let bind_base = proc!("glBindBufferBase" as unsafe extern "system" fn(GLenum, GLuint, GLuint));
    let flags =
        gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT | gl::MAP_COHERENT_BIT | gl::DYNAMIC_STORAGE_BIT;
    let red: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
    let green: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
    let blue: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
    // SAFETY: pointers to live locals of the stated sizes; `ptr` is a live persistent
    // mapping of 16 bytes while it is written.
    unsafe {
        let mut ubo = 0;
        (g.gen_buffers)(1, &mut ubo);
        (g.bind_buffer)(gl::UNIFORM_BUFFER, ubo);
        (storage)(gl::UNIFORM_BUFFER, 16, red.as_ptr() as *const c_void, flags);
        (bind_base)(gl::UNIFORM_BUFFER, 0, ubo);
        let ptr =
            (map_range)(gl::UNIFORM_BUFFER, 0, 16, flags & !gl::DYNAMIC_STORAGE_BIT) as *mut f32;
        assert!(!ptr.is_null());
        draw_fullscreen(&g); // queued: holds the store
        (g.buffer_sub_data)(gl::UNIFORM_BUFFER, 0, 16, green.as_ptr() as *const c_void);
        assert_eq!(
            &read_rgba(&g, 4, 4)[..4],
            &[255, 0, 0, 255],
            "the first draw saw red"
        );
        assert_eq!(
            std::slice::from_raw_parts(ptr, 4),
            &green,
            "the mapping sees BufferSubData"
        );
        std::ptr::copy_nonoverlapping(blue.as_ptr(), ptr, 4);
    }
    draw_fullscreen(&g);
    assert_eq!(
        &read_rgba(&g, 4, 4)[..4],
        &[0, 0, 255, 255],
        "the draw sees the mapping's write"
    );
    assert_eq!(g.error(), gl::NO_ERROR);
}

#[test]
fn failed_framebuffer_queries_write_nothing() {
    let _ctx = current(4, 4);
    let g = Gl::load();
    let rb_param = proc!(
        "glGetRenderbufferParameteriv" as unsafe extern "system" fn(GLenum, GLenum, *mut GLint)
    );
    let att_param = proc!(
        "glGetFramebufferAttachmentParameteriv"
            as unsafe extern "system" fn(GLenum, GLenum, GLenum, *mut GLint)
    );
    // SAFETY: pointers to live locals.
    unsafe {
        let mut v = 7;
        (rb_param)(gl::RENDERBUFFER, gl::RENDERBUFFER_WIDTH, &mut v);
        assert_eq!(
            (g.error(), v),
            (gl::INVALID_OPERATION, 7),
            "no renderbuffer bound"
        );
        (att_param)(
            gl::FRAMEBUFFER,
            gl::BACK_LEFT,
            gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
            &mut v,
        );
        assert_eq!(
            (g.error(), v),
            (gl::INVALID_ENUM, 7),
            "not a texture attachment"
        );
        (att_param)(
            gl::FRAMEBUFFER,
            gl::BACK_LEFT,
            gl::FRAMEBUFFER_ATTACHMENT_RED_SIZE,
            &mut v,
        );
        assert_eq!((g.error(), v), (gl::NO_ERROR, 8));
    }
}
