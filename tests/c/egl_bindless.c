/* The C driver's end-to-end test: a program that knows nothing of softgl, linked against
 * libglvnd (libEGL.so.1, libOpenGL.so.0), run with __EGL_VENDOR_LIBRARY_FILENAMES naming
 * softgl's vendor JSON. It creates a surfaceless display and a core context, draws a quad
 * sampling a texture through a resident bindless handle into an FBO, reads the pixels
 * back and checks them; then a pbuffer case, and GL and EGL error paths. Then it opens the
 * display again as headless programs on servers do, through an EGL device
 * (eglQueryDevicesEXT, eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)), renders there,
 * and checks EGL_KHR_fence_sync and the version override's forms. A robust context with
 * EGL_LOSE_CONTEXT_ON_RESET runs a shader whose loop never ends: the draw returns, and
 * glGetGraphicsResetStatus reports GL_GUILTY_CONTEXT_RESET, then the context is lost.
 *
 * Prints one line per failed check ("FAIL: ...") and exits 1 if any failed, 0 otherwise.
 * Built and run by tests/c_driver.rs. */

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            printf("FAIL (line %d): %s: ", __LINE__, #cond);               \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
        }                                                                  \
    } while (0)

/* Fatal: later checks would only repeat the failure. */
#define REQUIRE(cond, ...)                                                 \
    do {                                                                   \
        CHECK(cond, __VA_ARGS__);                                          \
        if (!(cond)) {                                                     \
            printf("stopping: %d failure(s)\n", failures);                 \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

static int has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    const char *p = list;
    if (!list) return 0;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
        p += n;
    }
    return 0;
}

static PFNGLGETTEXTUREHANDLEARBPROC pglGetTextureHandleARB;
static PFNGLMAKETEXTUREHANDLERESIDENTARBPROC pglMakeTextureHandleResidentARB;
static PFNGLUNIFORMHANDLEUI64ARBPROC pglUniformHandleui64ARB;
static PFNGLISTEXTUREHANDLERESIDENTARBPROC pglIsTextureHandleResidentARB;

static GLuint compile(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    GLint ok = 0;
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {0};
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        CHECK(ok, "shader did not compile:\n%s", log);
    }
    return s;
}

static const char *VS =
    "#version 450 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "out vec2 uv;\n"
    "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";

static const char *FS =
    "#version 450 core\n"
    "#extension GL_ARB_bindless_texture : require\n"
    "layout(bindless_sampler) uniform sampler2D tex;\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "void main() { color = texture(tex, uv); }\n";

/* The 2x2 texture: each quadrant of the 64x64 target shows one texel (NEAREST). */
static const uint8_t TEXELS[16] = {
    255, 0,   0,   255, /* (0,0) red */
    0,   255, 0,   255, /* (1,0) green */
    0,   0,   255, 255, /* (0,1) blue */
    255, 255, 255, 255, /* (1,1) white */
};

/* The sampled texture and its handle, for the share-context checks. */
static GLuint tex;
static GLuint64 handle;

static void bindless_quad_into_fbo(void) {
    enum { W = 64, H = 64 };
    GLuint fbo, target, vao, vbo, prog;
    GLint loc;
    static uint8_t pixels[W * H * 4];
    static const float quad[8] = {-1, -1, 1, -1, -1, 1, 1, 1};

    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenTextures(1, &target);
    glBindTexture(GL_TEXTURE_2D, target);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
          "FBO status 0x%x", glCheckFramebufferStatus(GL_FRAMEBUFFER));
    glViewport(0, 0, W, H);

    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, TEXELS);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    CHECK(glGetError() == GL_NO_ERROR, "error while setting up textures");

    handle = pglGetTextureHandleARB(tex);
    CHECK(handle != 0, "glGetTextureHandleARB returned 0 (GL error 0x%x)", glGetError());
    pglMakeTextureHandleResidentARB(handle);
    CHECK(pglIsTextureHandleResidentARB(handle), "handle not resident after making it so");

    prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, VS));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, FS));
    glLinkProgram(prog);
    {
        GLint ok = 0;
        glGetProgramiv(prog, GL_LINK_STATUS, &ok);
        if (!ok) {
            char log[2048] = {0};
            glGetProgramInfoLog(prog, sizeof log, NULL, log);
            REQUIRE(ok, "program did not link:\n%s", log);
        }
    }
    glUseProgram(prog);
    loc = glGetUniformLocation(prog, "tex");
    CHECK(loc >= 0, "no uniform 'tex'");
    pglUniformHandleui64ARB(loc, handle);

    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);

    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    CHECK(glGetError() == GL_NO_ERROR, "error after the draw");

    memset(pixels, 0x55, sizeof pixels);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    CHECK(glGetError() == GL_NO_ERROR, "error after glReadPixels");
    {
        /* Quadrant centres: texel (i, j) lands at ((i*2+1)*W/4, (j*2+1)*H/4). */
        int i, j, c;
        for (j = 0; j < 2; j++)
            for (i = 0; i < 2; i++) {
                int x = (i * 2 + 1) * W / 4, y = (j * 2 + 1) * H / 4;
                const uint8_t *got = pixels + (y * W + x) * 4;
                const uint8_t *want = TEXELS + (j * 2 + i) * 4;
                int same = 1;
                for (c = 0; c < 4; c++) same &= got[c] == want[c];
                CHECK(same, "pixel (%d,%d) = %d,%d,%d,%d, want %d,%d,%d,%d", x, y, got[0],
                      got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
            }
    }

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* Surfaceless: the default framebuffer does not exist (EGL_KHR_surfaceless_context). */
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_UNDEFINED,
          "default framebuffer status 0x%x without a surface",
          glCheckFramebufferStatus(GL_FRAMEBUFFER));
}

struct access_args {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLBoolean ok;
    EGLint error;
};

static void *make_current_elsewhere(void *p) {
    struct access_args *a = p;
    a->ok = eglMakeCurrent(a->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a->ctx);
    a->error = eglGetError();
    return NULL;
}

/* Clears an FBO (or the pbuffer, fbo = 0) to `rgba` and checks one pixel. */
static void clear_and_check(int use_fbo, const uint8_t rgba[4], const char *what) {
    GLuint fbo = 0, rb = 0;
    uint8_t px[4] = {0};
    if (use_fbo) {
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
              "%s: FBO status 0x%x", what, glCheckFramebufferStatus(GL_FRAMEBUFFER));
    }
    glClearColor(rgba[0] / 255.0f, rgba[1] / 255.0f, rgba[2] / 255.0f, rgba[3] / 255.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == rgba[0] && px[1] == rgba[1] && px[2] == rgba[2] && px[3] == rgba[3],
          "%s: pixel %d,%d,%d,%d, want %d,%d,%d,%d", what, px[0], px[1], px[2], px[3], rgba[0],
          rgba[1], rgba[2], rgba[3]);
    CHECK(glGetError() == GL_NO_ERROR, "%s: GL error", what);
    if (use_fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteRenderbuffers(1, &rb);
        glDeleteFramebuffers(1, &fbo);
    }
}

/* The display through an EGL device (EGL_EXT_device_base, EGL_EXT_platform_device), as
 * moderngl, pyrender and MuJoCo open it: the same configs, pbuffers and surfaceless
 * contexts as the surfaceless platform. Then EGL_KHR_fence_sync's entry points (libglvnd
 * has no stubs of its own for them: they come from the vendor's dispatch stubs) and the
 * version override's forms. Runs after the surfaceless display was terminated. */
static void device_case(void) {
    PFNEGLQUERYDEVICESEXTPROC pQueryDevices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC pQueryDeviceString =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLQUERYDISPLAYATTRIBEXTPROC pQueryDisplayAttrib =
        (PFNEGLQUERYDISPLAYATTRIBEXTPROC)eglGetProcAddress("eglQueryDisplayAttribEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC pGetPlatformDisplay =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLCREATESYNCKHRPROC pCreateSync =
        (PFNEGLCREATESYNCKHRPROC)eglGetProcAddress("eglCreateSyncKHR");
    PFNEGLDESTROYSYNCKHRPROC pDestroySync =
        (PFNEGLDESTROYSYNCKHRPROC)eglGetProcAddress("eglDestroySyncKHR");
    PFNEGLCLIENTWAITSYNCKHRPROC pClientWaitSync =
        (PFNEGLCLIENTWAITSYNCKHRPROC)eglGetProcAddress("eglClientWaitSyncKHR");
    PFNEGLGETSYNCATTRIBKHRPROC pGetSyncAttrib =
        (PFNEGLGETSYNCATTRIBKHRPROC)eglGetProcAddress("eglGetSyncAttribKHR");
    PFNEGLWAITSYNCKHRPROC pWaitSync = (PFNEGLWAITSYNCKHRPROC)eglGetProcAddress("eglWaitSyncKHR");
    static const EGLint core33[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    static const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    static const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    static const uint8_t blue[4] = {0, 0, 255, 255}, red[4] = {255, 0, 0, 255};
    EGLDeviceEXT devices[4] = {0}, dev;
    EGLint n = 0, major = 0, minor = 0, v = 0;
    EGLAttrib attr = 0;
    EGLDisplay dpy;
    EGLConfig config;
    EGLContext ctx, legacy;
    EGLSurface pbuf;
    const char *s;

    REQUIRE(pQueryDevices && pQueryDeviceString && pQueryDisplayAttrib && pGetPlatformDisplay,
            "device entry points missing from eglGetProcAddress");
    CHECK(pQueryDevices(0, NULL, &n) && n == 1, "%d devices, want 1 (error 0x%x)", n,
          eglGetError());
    REQUIRE(pQueryDevices(4, devices, &n) && n == 1 && devices[0] != EGL_NO_DEVICE_EXT,
            "eglQueryDevicesEXT: n=%d error 0x%x", n, eglGetError());
    dev = devices[0];
    s = pQueryDeviceString(dev, EGL_EXTENSIONS);
    CHECK(has_word(s, "EGL_MESA_device_software"), "device extensions: %s", s ? s : "(null)");
    CHECK(pQueryDeviceString((EGLDeviceEXT)(uintptr_t)0xbad0, EGL_EXTENSIONS) == NULL &&
              eglGetError() == EGL_BAD_DEVICE_EXT,
          "a bad device is not EGL_BAD_DEVICE_EXT");
    CHECK(pGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, (void *)(uintptr_t)0xbad0, NULL) ==
                  EGL_NO_DISPLAY &&
              eglGetError() == EGL_BAD_PARAMETER,
          "a display of a bad device");

    dpy = pGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
    REQUIRE(dpy != EGL_NO_DISPLAY, "no device display: 0x%x", eglGetError());
    REQUIRE(eglInitialize(dpy, &major, &minor), "eglInitialize(device display): 0x%x",
            eglGetError());
    CHECK(major == 1 && minor == 5, "EGL %d.%d", major, minor);
    CHECK(pQueryDisplayAttrib(dpy, EGL_DEVICE_EXT, &attr) && (EGLDeviceEXT)attr == dev,
          "eglQueryDisplayAttribEXT(EGL_DEVICE_EXT): 0x%x", eglGetError());
    CHECK(eglGetConfigs(dpy, NULL, 0, &n) && n == 2, "%d configs, want 2", n);
    s = eglQueryString(dpy, EGL_EXTENSIONS);
    CHECK(has_word(s, "EGL_KHR_surfaceless_context") && has_word(s, "EGL_KHR_fence_sync") &&
              has_word(s, "EGL_KHR_wait_sync"),
          "display extensions: %s", s);

    REQUIRE(eglBindAPI(EGL_OPENGL_API), "eglBindAPI: 0x%x", eglGetError());
    setenv("SOFTGL_GL_VERSION_OVERRIDE", "3.3", 1);
    REQUIRE(eglChooseConfig(dpy, config_attribs, &config, 1, &n) && n == 1,
            "eglChooseConfig: 0x%x", eglGetError());
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, core33);
    REQUIRE(ctx != EGL_NO_CONTEXT, "3.3 core context on the device display: 0x%x",
            eglGetError());
    /* Surfaceless: an FBO. */
    REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx),
            "surfaceless eglMakeCurrent: 0x%x", eglGetError());
    s = (const char *)glGetString(GL_VERSION);
    CHECK(s && strncmp(s, "3.3 (Core Profile)", 18) == 0, "GL_VERSION %s", s);
    clear_and_check(1, blue, "device display, surfaceless FBO");

    /* EGL_KHR_fence_sync / EGL_KHR_wait_sync through libglvnd's dispatch. */
    REQUIRE(pCreateSync && pDestroySync && pClientWaitSync && pGetSyncAttrib && pWaitSync,
            "EGL_KHR_fence_sync entry points missing from eglGetProcAddress");
    {
        EGLSyncKHR sync = pCreateSync(dpy, EGL_SYNC_FENCE_KHR, NULL);
        EGLint status = 0;
        CHECK(sync != EGL_NO_SYNC_KHR, "eglCreateSyncKHR: 0x%x", eglGetError());
        CHECK(pClientWaitSync(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR) ==
                  EGL_CONDITION_SATISFIED_KHR,
              "eglClientWaitSyncKHR");
        CHECK(pGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS_KHR, &status) &&
                  status == EGL_SIGNALED_KHR,
              "sync status 0x%x", status);
        CHECK(pWaitSync(dpy, sync, 0) == EGL_TRUE, "eglWaitSyncKHR: 0x%x", eglGetError());
        CHECK(pDestroySync(dpy, sync), "eglDestroySyncKHR: 0x%x", eglGetError());
        CHECK(!pDestroySync(dpy, sync) && eglGetError() == EGL_BAD_PARAMETER,
              "a destroyed KHR sync is not EGL_BAD_PARAMETER");
        CHECK(pCreateSync((EGLDisplay)(uintptr_t)0xbad0, EGL_SYNC_FENCE_KHR, NULL) ==
                      EGL_NO_SYNC_KHR &&
                  eglGetError() == EGL_BAD_DISPLAY,
              "eglCreateSyncKHR on a bad display is not EGL_BAD_DISPLAY");
    }

    /* A pbuffer on the device display. */
    pbuf = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    REQUIRE(pbuf != EGL_NO_SURFACE, "pbuffer on the device display: 0x%x", eglGetError());
    REQUIRE(eglMakeCurrent(dpy, pbuf, pbuf, ctx), "eglMakeCurrent(pbuffer): 0x%x",
            eglGetError());
    clear_and_check(0, red, "device display, pbuffer");

    /* The override claims the profile it names and nothing else: with a core-profile
     * value, an unversioned (legacy) request gets softgl's own version, no profile. */
    setenv("SOFTGL_GL_VERSION_OVERRIDE", "4.5", 1);
    legacy = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    REQUIRE(legacy != EGL_NO_CONTEXT, "unversioned context: 0x%x", eglGetError());
    REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, legacy), "make legacy current");
    s = (const char *)glGetString(GL_VERSION);
    CHECK(s && strncmp(s, "1.0 softgl", 10) == 0 && !strstr(s, "Compatibility"),
          "unversioned context under SOFTGL_GL_VERSION_OVERRIDE=4.5: GL_VERSION %s", s);
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &v);
    CHECK(v == 0, "GL_CONTEXT_PROFILE_MASK 0x%x", v);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
    CHECK(eglDestroyContext(dpy, legacy), "destroy legacy");
    {
        static const EGLint compat33[] = {
            EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
            EGL_NONE};
        CHECK(eglCreateContext(dpy, config, EGL_NO_CONTEXT, compat33) == EGL_NO_CONTEXT &&
                  eglGetError() == EGL_BAD_MATCH,
              "a 3.3 compatibility context under SOFTGL_GL_VERSION_OVERRIDE=4.5");
        /* 4.5COMPAT names the compatibility profile. */
        setenv("SOFTGL_GL_VERSION_OVERRIDE", "4.5COMPAT", 1);
        legacy = eglCreateContext(dpy, config, EGL_NO_CONTEXT, compat33);
        REQUIRE(legacy != EGL_NO_CONTEXT, "compatibility context under 4.5COMPAT: 0x%x",
                eglGetError());
        REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, legacy), "make current");
        s = (const char *)glGetString(GL_VERSION);
        CHECK(s && strncmp(s, "4.5 (Compatibility Profile)", 27) == 0, "GL_VERSION %s", s);
        CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
        CHECK(eglDestroyContext(dpy, legacy), "destroy compat");
    }
    unsetenv("SOFTGL_GL_VERSION_OVERRIDE");

    CHECK(eglDestroySurface(dpy, pbuf), "eglDestroySurface: 0x%x", eglGetError());
    CHECK(eglDestroyContext(dpy, ctx), "eglDestroyContext: 0x%x", eglGetError());
    CHECK(eglTerminate(dpy), "eglTerminate(device display)");
}

static void pbuffer_case(EGLDisplay dpy) {
    static const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_NONE};
    static const EGLint pbuffer_attribs[] = {EGL_WIDTH, 32, EGL_HEIGHT, 16, EGL_NONE};
    EGLConfig config;
    EGLint n = 0, v = 0;
    EGLSurface pbuf;
    EGLContext ctx;
    GLint viewport[4] = {0};
    uint8_t px[4] = {0};

    CHECK(eglChooseConfig(dpy, config_attribs, &config, 1, &n) && n == 1,
          "no pbuffer config with depth (n=%d, error 0x%x)", n, eglGetError());
    if (n != 1) return;
    CHECK(eglGetConfigAttrib(dpy, config, EGL_DEPTH_SIZE, &v) && v == 24, "depth %d", v);
    CHECK(!eglGetConfigAttrib(dpy, config, 0x1234, &v) &&
              eglGetError() == EGL_BAD_ATTRIBUTE,
          "bad attribute accepted");

    pbuf = eglCreatePbufferSurface(dpy, config, pbuffer_attribs);
    CHECK(pbuf != EGL_NO_SURFACE, "eglCreatePbufferSurface: 0x%x", eglGetError());
    CHECK(eglQuerySurface(dpy, pbuf, EGL_WIDTH, &v) && v == 32, "width %d", v);
    CHECK(eglQuerySurface(dpy, pbuf, EGL_HEIGHT, &v) && v == 16, "height %d", v);

    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL);
    CHECK(ctx != EGL_NO_CONTEXT, "eglCreateContext with a config: 0x%x", eglGetError());
    REQUIRE(eglMakeCurrent(dpy, pbuf, pbuf, ctx), "MakeCurrent pbuffer: 0x%x", eglGetError());
    glGetIntegerv(GL_VIEWPORT, viewport);
    CHECK(viewport[2] == 32 && viewport[3] == 16, "viewport %dx%d, want the pbuffer's 32x16",
          viewport[2], viewport[3]);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
          "pbuffer default framebuffer status 0x%x", glCheckFramebufferStatus(GL_FRAMEBUFFER));
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(eglSwapBuffers(dpy, pbuf), "eglSwapBuffers: 0x%x", eglGetError());
    glReadPixels(5, 5, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255,
          "pbuffer pixel %d,%d,%d,%d, want green", px[0], px[1], px[2], px[3]);
    CHECK(eglQueryContext(dpy, ctx, EGL_RENDER_BUFFER, &v) && v == EGL_BACK_BUFFER,
          "render buffer 0x%x", v);

    /* Destroying a current surface and context is deferred until released (EGL 1.5
     * §3.5.6, §3.7.2): GL keeps working, but the handles are gone. */
    CHECK(eglDestroySurface(dpy, pbuf), "eglDestroySurface: 0x%x", eglGetError());
    CHECK(eglDestroyContext(dpy, ctx), "eglDestroyContext: 0x%x", eglGetError());
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(glGetError() == GL_NO_ERROR, "GL failed on a context whose destruction is pending");
    CHECK(!eglQueryContext(dpy, ctx, EGL_CONFIG_ID, &v) && eglGetError() == EGL_BAD_CONTEXT,
          "destroyed context still valid");
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
}

/* EGL_EXT_create_context_robustness / EGL 1.5 robust contexts and GL_KHR_robustness: a
 * runaway loop is cut by softgl's loop budget and, with LOSE_CONTEXT_ON_RESET, resets the
 * context. */
static void robustness_case(EGLDisplay dpy) {
    static const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                   3,
                                   EGL_CONTEXT_MINOR_VERSION,
                                   3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                   EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                   EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                                   EGL_TRUE,
                                   EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                                   EGL_LOSE_CONTEXT_ON_RESET,
                                   EGL_NONE};
    static const char *vs = "#version 330\n"
                            "void main() {\n"
                            "  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0,\n"
                            "                gl_VertexID == 2 ? 3.0 : -1.0);\n"
                            "  gl_Position = vec4(p, 0.0, 1.0);\n"
                            "}\n";
    static const char *fs = "#version 330\nout vec4 c;\n"
                            "void main() { int i = 0; while (i >= 0) i++; c = vec4(i); }\n";
    const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
    CHECK(has_word(ext, "EGL_EXT_create_context_robustness"), "display extensions: %s",
          ext ? ext : "(null)");
    EGLContext c = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
    REQUIRE(c != EGL_NO_CONTEXT, "robust context: 0x%x", eglGetError());
    REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c), "robust current: 0x%x",
            eglGetError());
    PFNGLGETGRAPHICSRESETSTATUSPROC status =
        (PFNGLGETGRAPHICSRESETSTATUSPROC)eglGetProcAddress("glGetGraphicsResetStatus");
    REQUIRE(status != NULL, "no glGetGraphicsResetStatus");
    GLint v = 0;
    glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &v);
    CHECK(v == GL_LOSE_CONTEXT_ON_RESET, "GL_RESET_NOTIFICATION_STRATEGY 0x%x", v);
    glGetIntegerv(GL_CONTEXT_FLAGS, &v);
    CHECK(v & GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT, "GL_CONTEXT_FLAGS 0x%x", v);
    CHECK(status() == GL_NO_ERROR, "reset before any draw");
    GLuint fb, rb, vao;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glViewport(0, 0, 4, 4);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLuint p = glCreateProgram();
    glAttachShader(p, compile(GL_VERTEX_SHADER, vs));
    glAttachShader(p, compile(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    glUseProgram(p);
    CHECK(glGetError() == GL_NO_ERROR, "robust context setup");
    glDrawArrays(GL_TRIANGLES, 0, 3);
    CHECK(status() == GL_GUILTY_CONTEXT_RESET, "no guilty reset after a runaway shader");
    CHECK(status() == GL_NO_ERROR, "the reset is reported once");
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(glGetError() == GL_CONTEXT_LOST, "a command on a lost context");
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
    CHECK(eglDestroyContext(dpy, c), "destroy the robust context: 0x%x", eglGetError());
}

int main(void) {
    const char *client_ext, *s;
    EGLDisplay dpy;
    EGLint major = 0, minor = 0;
    EGLContext ctx;
    GLint v = 0;
    static const EGLint core45[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};

    client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    REQUIRE(client_ext != NULL, "no client extensions (is the vendor JSON found?)");
    CHECK(has_word(client_ext, "EGL_MESA_platform_surfaceless"), "client extensions: %s",
          client_ext);
    CHECK(has_word(client_ext, "EGL_EXT_platform_base"), "client extensions: %s", client_ext);
    /* Before any display exists, the device extensions are there (libglvnd asks a vendor
     * for devices only if its client extensions name them). */
    CHECK(has_word(client_ext, "EGL_EXT_device_base") &&
              has_word(client_ext, "EGL_EXT_device_enumeration") &&
              has_word(client_ext, "EGL_EXT_device_query") &&
              has_word(client_ext, "EGL_EXT_platform_device"),
          "client extensions: %s", client_ext);

    dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    REQUIRE(dpy != EGL_NO_DISPLAY, "no surfaceless display: 0x%x", eglGetError());
    REQUIRE(eglInitialize(dpy, &major, &minor), "eglInitialize: 0x%x", eglGetError());
    CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == dpy, "the default display is another one");
    {
        EGLint n = 0;
        CHECK(eglGetConfigs(dpy, NULL, 0, &n) && n == 2, "%d configs, want 2", n);
    }
    CHECK(major == 1 && minor == 5, "EGL %d.%d", major, minor);
    s = eglQueryString(dpy, EGL_VENDOR);
    REQUIRE(s && strcmp(s, "softgl") == 0, "EGL_VENDOR is %s: not softgl's driver", s);
    CHECK(has_word(eglQueryString(dpy, EGL_CLIENT_APIS), "OpenGL"), "client APIs");
    s = eglQueryString(dpy, EGL_EXTENSIONS);
    CHECK(has_word(s, "EGL_KHR_create_context") && has_word(s, "EGL_KHR_surfaceless_context") &&
              has_word(s, "EGL_KHR_no_config_context"),
          "display extensions: %s", s);

    REQUIRE(eglBindAPI(EGL_OPENGL_API), "eglBindAPI(EGL_OPENGL_API): 0x%x", eglGetError());
    CHECK(eglQueryAPI() == EGL_OPENGL_API, "eglQueryAPI 0x%x", eglQueryAPI());
    /* OpenGL ES is refused cleanly. (Binding ES first would "succeed": EGL_OPENGL_ES_API is
     * libglvnd's initial value, and rebinding the current API is a no-op there.) */
    CHECK(!eglBindAPI(EGL_OPENGL_ES_API) && eglGetError() == EGL_BAD_PARAMETER,
          "eglBindAPI(EGL_OPENGL_ES_API) accepted");
    CHECK(eglQueryAPI() == EGL_OPENGL_API, "a refused eglBindAPI changed the API");

    /* Without SOFTGL_GL_VERSION_OVERRIDE, softgl does not claim 4.5: EGL_BAD_MATCH. */
    unsetenv("SOFTGL_GL_VERSION_OVERRIDE");
    ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, core45);
    CHECK(ctx == EGL_NO_CONTEXT && eglGetError() == EGL_BAD_MATCH,
          "a 4.5 context without the version override was not refused with EGL_BAD_MATCH");
    if (ctx != EGL_NO_CONTEXT) eglDestroyContext(dpy, ctx);

    /* The user's explicit choice (README, version policy): claim 4.5. */
    setenv("SOFTGL_GL_VERSION_OVERRIDE", "4.5", 1);
    ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, core45);
    REQUIRE(ctx != EGL_NO_CONTEXT, "core 4.5 context: 0x%x", eglGetError());

    /* A bad surface is EGL_BAD_SURFACE. */
    CHECK(!eglMakeCurrent(dpy, (EGLSurface)(uintptr_t)0xbad0, (EGLSurface)(uintptr_t)0xbad0,
                          ctx) &&
              eglGetError() == EGL_BAD_SURFACE,
          "eglMakeCurrent with a bad surface");
    REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx),
            "surfaceless eglMakeCurrent: 0x%x", eglGetError());
    CHECK(eglGetCurrentContext() == ctx, "current context");

    printf("GL_VENDOR: %s\nGL_RENDERER: %s\nGL_VERSION: %s\n", glGetString(GL_VENDOR),
           glGetString(GL_RENDERER), glGetString(GL_VERSION));
    glGetIntegerv(GL_MAJOR_VERSION, &v);
    CHECK(v == 4, "GL_MAJOR_VERSION %d", v);
    glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &v);
    CHECK(v == GL_CONTEXT_CORE_PROFILE_BIT, "GL_CONTEXT_PROFILE_MASK 0x%x", v);

    /* A GL error path: a bad enum is GL_INVALID_ENUM, and the error is then cleared. */
    while (glGetError() != GL_NO_ERROR) {}
    glEnable(0xdead);
    CHECK(glGetError() == GL_INVALID_ENUM, "glEnable(bad) is not GL_INVALID_ENUM");
    CHECK(glGetError() == GL_NO_ERROR, "error not cleared");

    pglGetTextureHandleARB =
        (PFNGLGETTEXTUREHANDLEARBPROC)eglGetProcAddress("glGetTextureHandleARB");
    pglMakeTextureHandleResidentARB = (PFNGLMAKETEXTUREHANDLERESIDENTARBPROC)eglGetProcAddress(
        "glMakeTextureHandleResidentARB");
    pglUniformHandleui64ARB =
        (PFNGLUNIFORMHANDLEUI64ARBPROC)eglGetProcAddress("glUniformHandleui64ARB");
    pglIsTextureHandleResidentARB =
        (PFNGLISTEXTUREHANDLERESIDENTARBPROC)eglGetProcAddress("glIsTextureHandleResidentARB");
    REQUIRE(pglGetTextureHandleARB && pglMakeTextureHandleResidentARB &&
                pglUniformHandleui64ARB && pglIsTextureHandleResidentARB,
            "bindless entry points missing from eglGetProcAddress");
    {
        int n = 0, i, found = 0;
        glGetIntegerv(GL_NUM_EXTENSIONS, &n);
        for (i = 0; i < n; i++)
            found |= strcmp((const char *)glGetStringi(GL_EXTENSIONS, i),
                            "GL_ARB_bindless_texture") == 0;
        CHECK(found, "GL_ARB_bindless_texture not in the %d extensions", n);
    }

    bindless_quad_into_fbo();

    /* EGL 1.5 fence syncs on the rendering just done. */
    {
        EGLAttrib status = 0;
        EGLSync sync = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
        CHECK(sync != EGL_NO_SYNC, "eglCreateSync: 0x%x", eglGetError());
        CHECK(eglClientWaitSync(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER) ==
                  EGL_CONDITION_SATISFIED,
              "eglClientWaitSync");
        CHECK(eglGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS, &status) && status == EGL_SIGNALED,
              "sync status 0x%lx", (long)status);
        CHECK(eglDestroySync(dpy, sync), "eglDestroySync: 0x%x", eglGetError());
        CHECK(!eglDestroySync(dpy, sync) && eglGetError() == EGL_BAD_PARAMETER,
              "destroying a destroyed sync is not EGL_BAD_PARAMETER");
    }

    /* EGL_BAD_ACCESS: the context is current here, so another thread may not take it. */
    {
        pthread_t t;
        struct access_args a = {dpy, ctx, EGL_TRUE, 0};
        pthread_create(&t, NULL, make_current_elsewhere, &a);
        pthread_join(t, NULL);
        CHECK(!a.ok && a.error == EGL_BAD_ACCESS,
              "context current on two threads (ok=%d error=0x%x)", a.ok, a.error);
    }
    /* A thread that exits with a context current releases it. */
    {
        pthread_t t;
        EGLContext other = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, core45);
        struct access_args a = {dpy, other, EGL_FALSE, 0};
        pthread_create(&t, NULL, make_current_elsewhere, &a);
        pthread_join(t, NULL);
        CHECK(a.ok, "eglMakeCurrent on a second thread: 0x%x", a.error);
        CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, other),
              "a context left current by an exited thread: 0x%x", eglGetError());
        CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "back: 0x%x",
              eglGetError());
        CHECK(eglDestroyContext(dpy, other), "destroy: 0x%x", eglGetError());
    }

    /* A share context sees the texture; residency is per context (ARB_bindless_texture:
     * "resident ... for the current context"). */
    {
        EGLContext shared = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, ctx, core45);
        CHECK(shared != EGL_NO_CONTEXT, "share context: 0x%x", eglGetError());
        if (shared != EGL_NO_CONTEXT) {
            CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, shared),
                  "make the share context current: 0x%x", eglGetError());
            CHECK(glIsTexture(tex), "texture not shared");
            CHECK(pglGetTextureHandleARB(tex) == handle, "handle differs in the share group");
            CHECK(!pglIsTextureHandleResidentARB(handle),
                  "handle resident in a context that never made it resident");
            CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx), "back: 0x%x",
                  eglGetError());
            CHECK(pglIsTextureHandleResidentARB(handle), "residency lost in the first context");
            CHECK(eglDestroyContext(dpy, shared), "destroy share context");
        }
        CHECK(eglCreateContext(dpy, EGL_NO_CONFIG_KHR, (EGLContext)(uintptr_t)0xbad0, core45) ==
                      EGL_NO_CONTEXT &&
                  eglGetError() == EGL_BAD_CONTEXT,
              "a bad share context is not EGL_BAD_CONTEXT");
    }

    robustness_case(dpy);
    REQUIRE(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
    /* With no context current, GL calls do nothing (and do not crash). */
    glClear(GL_COLOR_BUFFER_BIT);

    pbuffer_case(dpy);

    CHECK(eglDestroyContext(dpy, ctx), "eglDestroyContext: 0x%x", eglGetError());
    CHECK(!eglDestroyContext(dpy, ctx) && eglGetError() == EGL_BAD_CONTEXT,
          "double destroy not EGL_BAD_CONTEXT");
    CHECK(eglTerminate(dpy), "eglTerminate");
    CHECK(!eglGetConfigs(dpy, NULL, 0, &v) && eglGetError() == EGL_NOT_INITIALIZED,
          "terminated display still initialized");
    CHECK(eglReleaseThread(), "eglReleaseThread");

    device_case();
    CHECK(eglReleaseThread(), "eglReleaseThread");

    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
