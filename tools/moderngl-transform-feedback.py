#!/usr/bin/env python3
# moderngl transform feedback on a driver through EGL (no window), as a user writes it:
# a vertex shader and a vertex+geometry program captured with vao.transform(), checked
# exactly, plus a PRIMITIVES_GENERATED query. Not part of cargo test (needs pip moderngl):
#   python3 -m venv /tmp/v && /tmp/v/bin/pip install moderngl numpy
#   cargo build --release -p softgl-egl
#   __EGL_VENDOR_LIBRARY_FILENAMES=$PWD/target/release/softgl_egl.json \
#     SOFTGL_GL_VERSION_OVERRIDE=4.5 /tmp/v/bin/python tools/moderngl-transform-feedback.py
# (or __EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json for llvmpipe).
import moderngl, numpy as np, struct
ctx = moderngl.create_standalone_context(backend='egl', require=330)
print(ctx.info['GL_VERSION'], ctx.info['GL_RENDERER'])
# A surfaceless context has no default framebuffer (both drivers refuse draws into it).
fbo = ctx.simple_framebuffer((4, 4)); fbo.use()
prog = ctx.program(vertex_shader='''#version 330
in float x; out float y; void main() { y = x * 2.0 + 1.0; }''', varyings=['y'])
src = ctx.buffer(np.arange(8, dtype='f4').tobytes())
dst = ctx.buffer(reserve=8 * 4)
vao = ctx.vertex_array(prog, [(src, 'f', 'x')])
vao.transform(dst, moderngl.POINTS, vertices=8)
out = np.frombuffer(dst.read(), dtype='f4')
print('vs xfb', out.tolist())
assert out.tolist() == [i * 2.0 + 1.0 for i in range(8)]
gs = ctx.program(vertex_shader='''#version 330
in float x; out float vx; void main() { vx = x; }''', geometry_shader='''#version 330
layout(points) in; layout(points, max_vertices = 2) out; in float vx[]; out float g;
void main() { g = vx[0]; EmitVertex(); EndPrimitive(); g = -vx[0]; EmitVertex(); EndPrimitive(); }''', varyings=['g'])
dst2 = ctx.buffer(reserve=16 * 4)
vao2 = ctx.vertex_array(gs, [(src, 'f', 'x')])
q = ctx.query(primitives=True)
with q:
    vao2.transform(dst2, moderngl.POINTS, vertices=8)
out2 = np.frombuffer(dst2.read(), dtype='f4')
print('gs xfb', out2.tolist(), 'primitives', q.primitives)
assert out2.tolist() == sum([[float(i), -float(i)] for i in range(8)], [])
print('OK')
