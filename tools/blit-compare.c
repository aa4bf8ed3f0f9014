/* glBlitFramebuffer on whatever driver libglvnd picks: a fixed 61x47 RGBA8 pattern is
 * blitted into a 64x64 RGBA8 target in several ways (1:1 with offset, flipped, NEAREST and
 * LINEAR up- and down-scaling, partly outside the source) and each result is dumped as hex,
 * one line per case, so two drivers' outputs can be compared byte by byte:
 *   cc -O2 tools/blit-compare.c -o /tmp/blit-compare -lEGL -lOpenGL
 *   __EGL_VENDOR_LIBRARY_FILENAMES=<vendor json> /tmp/blit-compare > out.txt
 * (softgl: SOFTGL_GL_VERSION_OVERRIDE=3.3, it asks for a 3.3 core context). Not part of
 * `cargo test`: the point is to compare with other drivers (NVIDIA, llvmpipe). */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>

#define SW 61
#define SH 47
#define DW 64
#define DH 64

static GLuint fbo_with_texture(int w, int h, const unsigned char *data) {
    GLuint fb, tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "incomplete framebuffer\n");
        exit(1);
    }
    return fb;
}

int main(void) {
    EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL)) {
        fprintf(stderr, "no EGL display\n");
        return 1;
    }
    eglBindAPI(EGL_OPENGL_API);
    static const EGLint ca[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ca);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        fprintf(stderr, "no context (0x%x)\n", eglGetError());
        return 1;
    }
    fprintf(stderr, "%s\n", (const char *)glGetString(GL_RENDERER));
    static unsigned char src[SW * SH * 4];
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            unsigned char *p = src + (y * SW + x) * 4;
            p[0] = (unsigned char)(x * 4);
            p[1] = (unsigned char)(y * 5);
            p[2] = (unsigned char)((x * 7 + y * 13) & 255);
            p[3] = (unsigned char)(((x ^ y) & 1) ? 255 : 64);
        }
    GLuint sfb = fbo_with_texture(SW, SH, src);
    GLuint dfb = fbo_with_texture(DW, DH, NULL);
    static const struct {
        const char *name;
        int s[4], d[4];
        GLenum filter;
    } cases[] = {
        {"copy_offset", {0, 0, SW, SH}, {2, 3, SW + 2, SH + 3}, GL_NEAREST},
        {"flip_xy", {0, 0, SW, SH}, {SW, SH, 0, 0}, GL_NEAREST},
        {"flip_src_y", {0, SH, SW, 0}, {0, 0, SW, SH}, GL_NEAREST},
        {"up_nearest", {5, 5, 25, 21}, {0, 0, 64, 64}, GL_NEAREST},
        {"up_linear", {5, 5, 25, 21}, {0, 0, 64, 64}, GL_LINEAR},
        {"down_nearest", {0, 0, SW, SH}, {0, 0, 23, 17}, GL_NEAREST},
        {"down_linear", {0, 0, SW, SH}, {0, 0, 23, 17}, GL_LINEAR},
        {"odd_linear", {3, 2, 10, 9}, {1, 1, 62, 40}, GL_LINEAR},
        {"outside_src", {-10, -5, 40, 30}, {0, 0, 50, 35}, GL_NEAREST},
    };
    static unsigned char out[DW * DH * 4];
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        glBindFramebuffer(GL_FRAMEBUFFER, dfb);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, sfb);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dfb);
        glBlitFramebuffer(cases[i].s[0], cases[i].s[1], cases[i].s[2], cases[i].s[3],
                          cases[i].d[0], cases[i].d[1], cases[i].d[2], cases[i].d[3],
                          GL_COLOR_BUFFER_BIT, cases[i].filter);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, dfb);
        glReadPixels(0, 0, DW, DH, GL_RGBA, GL_UNSIGNED_BYTE, out);
        printf("%s 0x%x ", cases[i].name, glGetError());
        for (int k = 0; k < DW * DH * 4; k++)
            printf("%02x", out[k]);
        printf("\n");
    }
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(d);
    return 0;
}
