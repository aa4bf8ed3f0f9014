#!/bin/bash
# Runs benches/llvmpipe/workloads.c on llvmpipe and on two softgl builds at 1 and 16 threads on
# a machine with no network (the device machine), one round unless ROUNDS says more.
# Prepare here, in the repository root (.bench/ and .gl/ are kept out of git by
# .git/info/exclude; carry both):
#   .gl/*.deb                      libglvnd: libegl1 libglvnd0 libopengl0 libgl1 libglx0
#   .bench/workloads               cc -O2 -o .bench/workloads benches/llvmpipe/workloads.c -lEGL -lOpenGL
#   .bench/llvmpipe.tar.xz         lib/libEGL_mesa.so.0, lib/dri/swrast_dri.so and their ldd
#                                  closure (minus libc, libEGL, libGLdispatch), from Debian 12
#   .bench/{base,new}/libEGL_softgl.so.xz   the two driver builds, xz-compressed (64 MiB carry limit)
# then: cp tools/device-bench.sh .bench/dev.sh, and on the device: bash .bench/dev.sh
# Device run: softgl (new, and main-at-session-start as base) and llvmpipe, 1 and 16 threads.
cd "$(dirname "$0")"
for f in ../.gl/*.deb; do dpkg -x $f / ; done; ldconfig
nproc; grep -m1 "model name" /proc/cpuinfo
mkdir -p /opt/lp && tar xJf llvmpipe.tar.xz -C /opt/lp
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"/opt/lp/lib/libEGL_mesa.so.0"}}\n' > /opt/lp/mesa.json
for v in base new; do xz -dc $v/libEGL_softgl.so.xz > $v/libEGL_softgl.so;
  printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' "$PWD/$v/libEGL_softgl.so" > $v/softgl.json
done
WL=${WL:-fill_1080p_blend tris_200k_depth trilinear_1024 grid_4096_textures compile_link_100_lines alu_sincos_1080p draws_2000_ubo readback_1080p}
for round in $(seq 1 ${ROUNDS:-1}); do
  for t in 1 16; do
    echo "== llvmpipe threads=$t round=$round"
    for w in $WL; do
      LD_LIBRARY_PATH=/opt/lp/lib LIBGL_DRIVERS_PATH=/opt/lp/lib/dri LP_NUM_THREADS=$t LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe MESA_SHADER_CACHE_DISABLE=true \
        __EGL_VENDOR_LIBRARY_FILENAMES=/opt/lp/mesa.json timeout 200 ./workloads $w 2>&1 | grep -v "^renderer" | head -3
    done
    for v in new base; do
      echo "== $v threads=$t round=$round"
      for w in $WL; do
        SOFTGL_THREADS=$t SOFTGL_GL_VERSION_OVERRIDE=4.5 __EGL_VENDOR_LIBRARY_FILENAMES=$PWD/$v/softgl.json timeout 200 ./workloads $w 2>&1 | grep -v renderer
      done
    done
  done
done
