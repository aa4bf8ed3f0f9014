#!/usr/bin/env python3
# Real headless programs on softgl and on llvmpipe, as their users run them: moderngl
# (standalone EGL context, MSAA + depth + texture; and a compute shader with an SSBO, shared
# memory and an image store), pyrender (OffscreenRenderer, PYOPENGL_PLATFORM=egl),
# VTK (vtkEGLRenderWindow) and MuJoCo (MUJOCO_GL=egl). Each case runs in its own process
# (a crash or hang is a result, not the end of the run) on both drivers; the report gives
# how far each got and how its image compares with llvmpipe's (mean and max absolute
# difference per 8-bit channel). Not part of cargo test (needs pip packages):
#   python3 -m venv /tmp/v && /tmp/v/bin/pip install moderngl pyrender vtk mujoco numpy
#   cargo build --release -p softgl-egl
#   /tmp/v/bin/python tools/real-programs.py [case ...]
# pyrender pins PyOpenGL 3.1.0, which MuJoCo's EGL module cannot use: run the mujoco case
# from its own venv (python3 -m venv /tmp/mj && /tmp/mj/bin/pip install mujoco numpy).
# SOFTGL_JSON overrides the softgl vendor file (default target/release/softgl_egl.json),
# MESA_JSON Mesa's (default /usr/share/glvnd/egl_vendor.d/50_mesa.json).
import os, subprocess, sys, json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOFTGL = os.environ.get('SOFTGL_JSON', os.path.join(ROOT, 'target/release/softgl_egl.json'))
MESA = os.environ.get('MESA_JSON', '/usr/share/glvnd/egl_vendor.d/50_mesa.json')

CASES = {}


def case(f):
    CASES[f.__name__] = f
    return f


@case
def moderngl():
    import moderngl as mgl, numpy as np
    ctx = mgl.create_standalone_context(backend='egl', require=330)
    print('version', ctx.info['GL_VERSION'], ctx.info['GL_RENDERER'])
    size = (96, 64)
    ms = ctx.framebuffer(color_attachments=[ctx.renderbuffer(size, samples=4)],
                         depth_attachment=ctx.depth_renderbuffer(size, samples=4))
    out = ctx.simple_framebuffer(size)
    prog = ctx.program(vertex_shader='''#version 330
        in vec3 pos; in vec2 uv_in; out vec2 uv;
        void main() { gl_Position = vec4(pos, 1.0); uv = uv_in; }''',
                       fragment_shader='''#version 330
        uniform sampler2D tex; in vec2 uv; out vec4 c;
        void main() { c = texture(tex, uv) * vec4(1.0, 0.9, 0.8, 1.0); }''')
    checker = np.indices((8, 8)).sum(axis=0) % 2
    texels = np.stack([checker * 200 + 40] * 3 + [np.full((8, 8), 255)], -1).astype('u1')
    tex = ctx.texture((8, 8), 4, texels.tobytes())
    tex.build_mipmaps()
    tex.use(0)
    verts = np.array([-0.9, -0.8, 0.2, 0, 0, 0.8, -0.6, -0.3, 1, 0, 0.1, 0.9, 0.5, 0.5, 1,
                      -0.5, 0.7, -0.5, 0, 0, 0.9, 0.2, 0.5, 1, 0, -0.2, -0.9, 0.0, 1, 1], 'f4')
    vao = ctx.vertex_array(prog, [(ctx.buffer(verts.tobytes()), '3f 2f', 'pos', 'uv_in')])
    ms.use()
    ctx.enable(mgl.DEPTH_TEST)
    ctx.clear(0.1, 0.2, 0.3, 1.0)
    vao.render(mgl.TRIANGLES)
    q = ctx.query(samples=True, time=True)
    with q:
        vao.render(mgl.TRIANGLES)
    ctx.copy_framebuffer(out, ms)
    print('samples', q.samples)
    return np.frombuffer(out.read(components=4), 'u1').reshape(size[1], size[0], 4)


@case
def moderngl_compute():
    # moderngl's compute path: a 4.3 context, a compute shader writing an SSBO through
    # shared memory and a barrier, and an image store read back as a texture.
    import moderngl as mgl, numpy as np
    ctx = mgl.create_standalone_context(backend='egl', require=430)
    print('version', ctx.info['GL_VERSION'])
    cs = ctx.compute_shader('''#version 430
        layout(local_size_x = 16, local_size_y = 16) in;
        layout(std430, binding = 0) buffer Out { vec4 px[]; };
        layout(rgba8, binding = 1) writeonly uniform image2D img;
        shared float row[16][16];
        void main() {
            uvec2 p = gl_GlobalInvocationID.xy;
            row[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = float(p.x ^ p.y) / 64.0;
            barrier();
            float n = row[gl_LocalInvocationID.y][15u - gl_LocalInvocationID.x];
            vec4 c = vec4(n, float(p.x) / 96.0, float(p.y) / 64.0, 1.0);
            px[p.y * 96u + p.x] = c;
            imageStore(img, ivec2(p), c.bgra);
        }''')
    size = (96, 64)
    buf = ctx.buffer(reserve=size[0] * size[1] * 16)
    buf.bind_to_storage_buffer(0)
    tex = ctx.texture(size, 4)
    tex.bind_to_image(1, read=False, write=True)
    cs.run(size[0] // 16, size[1] // 16)
    ctx.memory_barrier()
    ssbo = np.frombuffer(buf.read(), 'f4').reshape(size[1], size[0], 4)
    image = np.frombuffer(tex.read(), 'u1').reshape(size[1], size[0], 4)
    from_ssbo = np.clip(np.rint(ssbo * 255), 0, 255).astype('u1')
    print('image matches the SSBO (bgra):', bool((np.abs(image.astype(int) - from_ssbo[..., [2, 1, 0, 3]]) <= 1).all()))
    return from_ssbo


@case
def pyrender():
    os.environ['PYOPENGL_PLATFORM'] = 'egl'
    import numpy as np, trimesh, pyrender as pr
    mesh = pr.Mesh.from_trimesh(trimesh.creation.icosphere(subdivisions=3),
                                material=pr.MetallicRoughnessMaterial(baseColorFactor=[0.8, 0.3, 0.2, 1]))
    scene = pr.Scene(ambient_light=[0.2, 0.2, 0.2])
    scene.add(mesh)
    pose = np.eye(4)
    pose[2, 3] = 3.0
    scene.add(pr.PerspectiveCamera(yfov=0.8), pose=pose)
    scene.add(pr.DirectionalLight(intensity=3.0), pose=pose)
    r = pr.OffscreenRenderer(96, 64)
    color, depth = r.render(scene)
    print('depth range', float(depth[depth > 0].min()), float(depth.max()))
    r.delete()
    return np.dstack([color, np.full(color.shape[:2], 255, 'u1')])


@case
def vtk():
    os.environ['VTK_DEFAULT_OPENGL_WINDOW'] = 'vtkEGLRenderWindow'
    import numpy as np
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401 (the OpenGL back end)
    from vtkmodules.vtkFiltersSources import vtkConeSource
    from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper, vtkRenderer, vtkRenderWindow, vtkWindowToImageFilter
    from vtkmodules.util.numpy_support import vtk_to_numpy
    cone = vtkConeSource()
    cone.SetResolution(24)
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(cone.GetOutputPort())
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(0.9, 0.5, 0.2)
    ren = vtkRenderer()
    ren.AddActor(actor)
    ren.SetBackground(0.1, 0.2, 0.3)
    win = vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.AddRenderer(ren)
    win.SetSize(96, 64)
    win.Render()
    print('window', win.GetClassName(), win.ReportCapabilities().splitlines()[:3])
    grab = vtkWindowToImageFilter()
    grab.SetInput(win)
    grab.SetInputBufferTypeToRGBA()
    grab.Update()
    img = grab.GetOutput()
    w, h, _ = img.GetDimensions()
    return vtk_to_numpy(img.GetPointData().GetScalars()).reshape(h, w, 4)[::-1]


@case
def mujoco():
    os.environ['MUJOCO_GL'] = 'egl'
    import mujoco as mj, numpy as np
    xml = '''<mujoco><worldbody><light pos="0 0 3"/>
      <geom type="plane" size="1 1 0.1" rgba="0.3 0.5 0.3 1"/>
      <body pos="0 0 0.3"><freejoint/><geom type="box" size="0.1 0.1 0.1" rgba="0.8 0.2 0.2 1"/></body>
      </worldbody></mujoco>'''
    m = mj.MjModel.from_xml_string(xml)
    d = mj.MjData(m)
    mj.mj_forward(m, d)
    with mj.Renderer(m, 64, 96) as r:
        r.update_scene(d)
        rgb = r.render()
    return np.dstack([rgb, np.full(rgb.shape[:2], 255, 'u1')])


def child(name, out):
    import numpy as np
    img = CASES[name]()
    np.save(out, img)


def run(name, vendor):
    out = f'/tmp/real-{name}-{os.path.basename(vendor)}.npy'
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES=vendor, SOFTGL_GL_VERSION_OVERRIDE='4.5')
    try:
        p = subprocess.run([sys.executable, __file__, '--child', name, out], env=env,
                           capture_output=True, text=True, timeout=300)
        status = 'ok' if p.returncode == 0 and os.path.exists(out) else f'exit {p.returncode}'
        tail = (p.stdout + p.stderr).strip().splitlines()[-6:]
    except subprocess.TimeoutExpired:
        status, tail = 'timeout', []
    return status, out, tail


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--child':
        child(sys.argv[2], sys.argv[3])
        return
    import numpy as np
    names = sys.argv[1:] or list(CASES)
    for name in names:
        s_status, s_out, s_tail = run(name, SOFTGL)
        m_status, m_out, m_tail = run(name, MESA)
        line = f'{name}: softgl {s_status}, llvmpipe {m_status}'
        if s_status == m_status == 'ok':
            a, b = np.load(s_out).astype(int), np.load(m_out).astype(int)
            if a.shape == b.shape:
                d = np.abs(a - b)
                line += f'; |softgl - llvmpipe| mean {d.mean():.3f}, max {d.max()}, pixels differing by > 8: {int((d.max(axis=-1) > 8).sum())} of {d.shape[0] * d.shape[1]}'
            else:
                line += f'; image shapes differ {a.shape} vs {b.shape}'
        print(line)
        for t in s_tail:
            print('   softgl |', t)
        if m_status != 'ok':
            for t in m_tail:
                print('   llvmpipe |', t)


if __name__ == '__main__':
    main()
