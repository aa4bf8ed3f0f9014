#!/usr/bin/env python3
"""Decodes the same random compressed blocks on the current EGL vendor and dumps the result.

  tools/compressed-dump.py dump OUTDIR     blocks + glGetTexImage texels per format, on the
                                           vendor __EGL_VENDOR_LIBRARY_FILENAMES selects
  tools/compressed-dump.py compare A B     per format: texels that differ and the largest gap

Needs PyOpenGL and numpy, EGL_PLATFORM=surfaceless for Mesa. Run `dump` once with each
driver's vendor JSON (softgl with SOFTGL_GL_VERSION_OVERRIDE=4.5), then `compare`: the
texels go through glCompressedTexImage2D and glGetTexImage on both. Session 10, 256 random
blocks per format: BC7, BC6H (signed and unsigned), ETC2 (every mode), punch-through and
EAC alpha identical to llvmpipe; RGTC, S3TC and R11/RG11 differ only by the rounding GL
leaves open (Mesa decodes through 8-bit and 16-bit intermediates, softgl rounds the exact
value: at most 2/255 for unsigned, 0.014 for signed RGTC, 3e-5 for EAC).
"""
import os, sys, random, ctypes

FORMATS = {  # name: (GL enum, bytes per block, read back as float)
    "rgtc1": (0x8DBB, 8, False), "srgtc1": (0x8DBC, 8, True),
    "rgtc2": (0x8DBD, 16, False), "srgtc2": (0x8DBE, 16, True),
    "dxt1": (0x83F0, 8, False), "dxt1a": (0x83F1, 8, False),
    "dxt3": (0x83F2, 16, False), "dxt5": (0x83F3, 16, False),
    "bc7": (0x8E8C, 16, False), "bc6hs": (0x8E8E, 16, True), "bc6hu": (0x8E8F, 16, True),
    "etc2": (0x9274, 8, False), "etc2pt": (0x9276, 8, False), "etc2eac": (0x9278, 16, False),
    "r11": (0x9270, 8, True), "sr11": (0x9271, 8, True),
    "rg11": (0x9272, 16, True), "srg11": (0x9273, 16, True),
}
W = H = 64


def dump(out):
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    from OpenGL import EGL, GL
    import OpenGL.raw.GL.VERSION.GL_1_3 as gl13
    import numpy as np
    dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
    EGL.eglInitialize(dpy, None, None)
    cfg, n = EGL.EGLConfig(), EGL.EGLint()
    attrs = (EGL.EGLint * 3)(EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_BIT, EGL.EGL_NONE)
    EGL.eglChooseConfig(dpy, attrs, ctypes.byref(cfg), 1, ctypes.byref(n))
    EGL.eglBindAPI(EGL.EGL_OPENGL_API)
    # Core 4.5 (EGL_CONTEXT_MAJOR_VERSION, MINOR, PROFILE_MASK core).
    ca = (EGL.EGLint * 7)(0x3098, 4, 0x30FB, 5, 0x30FD, 1, EGL.EGL_NONE)
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, ca)
    EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx)
    print(GL.glGetString(GL.GL_RENDERER).decode())
    os.makedirs(out, exist_ok=True)
    rng = random.Random(1234)
    for name, (enum, bb, flt) in FORMATS.items():
        data = bytes(rng.getrandbits(8) for _ in range((W // 4) * (H // 4) * bb))
        GL.glBindTexture(GL.GL_TEXTURE_2D, GL.glGenTextures(1))
        GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
        gl13.glCompressedTexImage2D(GL.GL_TEXTURE_2D, 0, enum, W, H, 0, len(data), data)
        err = GL.glGetError()
        if err:
            print(f"{name}: upload error {err:#x}")
            continue
        ty = GL.GL_FLOAT if flt else GL.GL_UNSIGNED_BYTE
        px = GL.glGetTexImage(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA, ty)
        arr = np.frombuffer(px, dtype=np.float32 if flt else np.uint8)
        open(f"{out}/{name}.blocks", "wb").write(data)
        open(f"{out}/{name}.texels", "wb").write(arr.tobytes())
        print(f"{name}: {arr.size // 4} texels")


def compare(a, b):
    import numpy as np
    for name, (_, _, flt) in FORMATS.items():
        try:
            x, y = (np.fromfile(f"{d}/{name}.texels", dtype=np.float32 if flt else np.uint8)
                    for d in (a, b))
        except FileNotFoundError:
            print(f"{name:8} missing")
            continue
        gap = np.abs(x.astype(np.float64) - y).reshape(-1, 4).max(axis=1)
        print(f"{name:8} differing texels {int((gap > 0).sum()):5}/{gap.size}  largest {gap.max():.6g}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
