/* The criterion benches' workloads, run through EGL + GL on whatever driver libglvnd picks
 * (Mesa's llvmpipe with Debian's libgl1-mesa-dri), so softgl's figures have a comparison on
 * the same machine. Build and run: benches/llvmpipe/run.sh. Prints one line per workload:
 * "name median_ms". Each workload is rendered then waited for with glFinish, as the Rust
 * benches do. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static GLuint shader(GLenum type, const char *src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "compile: %s\n", log);
        exit(1);
    }
    return s;
}

static GLuint program(const char *vs, const char *fs) {
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "link failed\n");
        exit(1);
    }
    return p;
}

static void target(int w, int h) {
    GLuint fb, rb[2];
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    glViewport(0, 0, w, h);
}

static const char *VS_POS =
    "#version 330 core\nlayout(location=0) in vec2 pos;\n"
    "void main(){ gl_Position = vec4(pos, 0.0, 1.0); }\n";

/* A full-screen quad as two triangles in attribute 0. */
static void quad_vao(void) {
    static const float v[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
}

typedef void (*frame_fn)(void);

static double median_ms(frame_fn f, int iters) {
    double t[256];
    f(); /* warm-up: shader variants are compiled on first use */
    glFinish();
    for (int i = 0; i < iters; i++) {
        double t0 = now_ms();
        f();
        glFinish();
        t[i] = now_ms() - t0;
    }
    qsort(t, iters, sizeof(double), cmp_d);
    return t[iters / 2];
}

/* 1. 1080p blended full-screen fill. */
static void fill_frame(void) { glDrawArrays(GL_TRIANGLES, 0, 6); }
static void setup_fill(void) {
    target(1920, 1080);
    quad_vao();
    GLuint p = program(VS_POS, "#version 330 core\nuniform vec4 color;\nout vec4 o;\n"
                               "void main(){ o = color; }\n");
    glUseProgram(p);
    glUniform4f(glGetUniformLocation(p, "color"), 0.2f, 0.4f, 0.6f, 0.5f);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

/* 2. 200k small depth-tested triangles on 1024x1024, per-vertex colour. */
#define NTRI 200000
static void tris_frame(void) {
    glClear(GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, NTRI * 3);
}
static void setup_tris(void) {
    target(1024, 1024);
    float *v = malloc(sizeof(float) * NTRI * 3 * 6);
    unsigned s = 12345;
    for (int i = 0; i < NTRI; i++) {
        s = s * 1103515245u + 12345u;
        float cx = (float)((s >> 8) % 1024) / 512.0f - 1.0f;
        s = s * 1103515245u + 12345u;
        float cy = (float)((s >> 8) % 1024) / 512.0f - 1.0f;
        s = s * 1103515245u + 12345u;
        float z = (float)((s >> 8) % 1000) / 1000.0f * 2.0f - 1.0f;
        float d = 6.0f / 512.0f; /* about 6 px legs: ~18 px per triangle */
        float tri[3][2] = {{cx, cy}, {cx + d, cy}, {cx, cy + d}};
        for (int k = 0; k < 3; k++) {
            float *o = v + (i * 3 + k) * 6;
            o[0] = tri[k][0]; o[1] = tri[k][1]; o[2] = z;
            o[3] = (float)(i % 7) / 7.0f; o[4] = (float)(i % 11) / 11.0f; o[5] = (float)(i % 13) / 13.0f;
        }
    }
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * NTRI * 3 * 6, v, GL_STATIC_DRAW);
    free(v);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, 0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, (void *)12);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    GLuint p = program("#version 330 core\nlayout(location=0) in vec3 pos;\n"
                       "layout(location=1) in vec3 col;\nout vec3 c;\n"
                       "void main(){ c = col; gl_Position = vec4(pos, 1.0); }\n",
                       "#version 330 core\nin vec3 c;\nout vec4 o;\n"
                       "void main(){ o = vec4(c, 1.0); }\n");
    glUseProgram(p);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
}

/* 3. Trilinear texture fill: 1024x1024, a 512x512 mipmapped RGBA8 texture, coords x3. */
static GLuint make_texture(int size, unsigned seed) {
    unsigned char *px = malloc((size_t)size * size * 4);
    for (int i = 0; i < size * size * 4; i++) {
        seed = seed * 1103515245u + 12345u;
        px[i] = (unsigned char)(seed >> 16);
    }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    free(px);
    return t;
}
static void trilinear_frame(void) { glDrawArrays(GL_TRIANGLES, 0, 6); }
static void setup_trilinear(void) {
    target(1024, 1024);
    quad_vao();
    make_texture(512, 7);
    GLuint p = program("#version 330 core\nlayout(location=0) in vec2 pos;\nout vec2 uv;\n"
                       "void main(){ uv = (pos * 0.5 + 0.5) * 3.0; gl_Position = vec4(pos, 0.0, 1.0); }\n",
                       "#version 330 core\nin vec2 uv;\nuniform sampler2D tex;\nout vec4 o;\n"
                       "void main(){ o = texture(tex, uv); }\n");
    glUseProgram(p);
}

/* 4. A 64x64 grid of quads on 1024x1024, each sampling its own 16x16 mipmapped texture.
 * llvmpipe has no bindless textures: the same work is one bind and one draw per quad. */
#define GRID 64
static GLuint grid_tex[GRID * GRID];
static void grid_frame(void) {
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < GRID * GRID; i++) {
        glBindTexture(GL_TEXTURE_2D, grid_tex[i]);
        glDrawArrays(GL_TRIANGLES, i * 6, 6);
    }
}
static void setup_grid(void) {
    target(1024, 1024);
    float *v = malloc(sizeof(float) * GRID * GRID * 6 * 4);
    for (int i = 0; i < GRID * GRID; i++) {
        float x0 = (float)(i % GRID) / GRID * 2 - 1, y0 = (float)(i / GRID) / GRID * 2 - 1;
        float d = 2.0f / GRID;
        float q[6][4] = {{x0, y0, 0, 0}, {x0 + d, y0, 1, 0}, {x0 + d, y0 + d, 1, 1},
                         {x0, y0, 0, 0}, {x0 + d, y0 + d, 1, 1}, {x0, y0 + d, 0, 1}};
        memcpy(v + i * 24, q, sizeof q);
    }
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(float) * GRID * GRID * 24, v, GL_STATIC_DRAW);
    free(v);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, 0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, (void *)8);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    for (int i = 0; i < GRID * GRID; i++) grid_tex[i] = make_texture(16, 100 + i);
    GLuint p = program("#version 330 core\nlayout(location=0) in vec2 pos;\n"
                       "layout(location=1) in vec2 uv_in;\nout vec2 uv;\n"
                       "void main(){ uv = uv_in; gl_Position = vec4(pos, 0.0, 1.0); }\n",
                       "#version 330 core\nin vec2 uv;\nuniform sampler2D tex;\nout vec4 o;\n"
                       "void main(){ o = texture(tex, uv); }\n");
    glUseProgram(p);
}

/* 5. Compile + link of a 100-line fragment shader, up to the first pixel (Mesa compiles
 * the real code at the first draw). */
static char *long_fs(int salt) {
    static char buf[16384];
    int n = sprintf(buf, "#version 330 core\nin vec2 uv;\nuniform vec4 k[4];\nout vec4 o;\n"
                         "float f%d(float x) { return x * %d.0 + 1.0; }\nvoid main() {\n"
                         "  vec4 acc = vec4(0.0);\n  float t = uv.x;\n", salt, salt % 7 + 1);
    for (int i = 0; i < 90; i++)
        n += sprintf(buf + n, "  t = fract(t * %d.5 + sin(t) * k[%d].x); acc += vec4(t, t * t, f%d(t), 1.0) * k[%d];\n",
                     i % 9 + 1, i % 4, salt, (i + 1) % 4);
    sprintf(buf + n, "  if (acc.x > 1000.0) discard;\n  o = acc * 0.01;\n}\n");
    return buf;
}
static int compile_salt = 0;
static void compile_frame(void) {
    GLuint p = program("#version 330 core\nlayout(location=0) in vec2 pos;\nout vec2 uv;\n"
                       "void main(){ uv = pos; gl_Position = vec4(pos, 0.0, 1.0); }\n",
                       long_fs(compile_salt++));
    glUseProgram(p);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glFinish();
    glUseProgram(0);
    glDeleteProgram(p);
}
static void setup_compile(void) {
    target(4, 4);
    quad_vao();
}

int main(int argc, char **argv) {
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!eglInitialize(dpy, NULL, NULL)) { fprintf(stderr, "eglInitialize failed\n"); return 1; }
    eglBindAPI(EGL_OPENGL_API);
    EGLint cfg_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig cfg; EGLint n = 0;
    eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n);
    EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                         EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, n ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
    if (!ctx || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) { fprintf(stderr, "no context\n"); return 1; }
    fprintf(stderr, "renderer: %s\n", glGetString(GL_RENDERER));
    const char *only = argc > 1 ? argv[1] : "";
    struct { const char *name; void (*setup)(void); frame_fn frame; int iters; } w[] = {
        {"fill_1080p_blend", setup_fill, fill_frame, 30},
        {"tris_200k_depth", setup_tris, tris_frame, 15},
        {"trilinear_1024", setup_trilinear, trilinear_frame, 30},
        {"grid_4096_textures", setup_grid, grid_frame, 15},
        {"compile_link_100_lines", setup_compile, compile_frame, 15},
    };
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) {
        if (*only && strcmp(only, w[i].name)) continue;
        w[i].setup();
        printf("%s %.3f\n", w[i].name, median_ms(w[i].frame, w[i].iters));
        fflush(stdout);
    }
    return 0;
}
