#!/usr/bin/env bash
# Runs the bench workloads on Mesa's llvmpipe for comparison with softgl's criterion figures.
# Needs Debian's libgl1-mesa-dri, libegl-dev and libopengl-dev. Usage: run.sh [workload]
# (LP_NUM_THREADS sets llvmpipe's thread count, like SOFTGL_THREADS for softgl).
set -euo pipefail
here=$(dirname "$0")
out=${TMPDIR:-/tmp}/softgl-llvmpipe-workloads
cc -O2 -o "$out" "$here/workloads.c" -lEGL -lOpenGL
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json
# No shader cache: every compile in the compile workload must be a real one, as in softgl's.
export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe MESA_SHADER_CACHE_DISABLE=true
exec "$out" "$@"
