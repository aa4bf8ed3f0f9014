#!/usr/bin/env bash
# Runs benches/llvmpipe/workloads.c on two softgl builds (two libEGL_softgl.so files: a
# baseline and a change), alternating, at 1 and 16 threads, and prints the median of each
# workload's per-run medians side by side. Alternating runs in one session are the only
# comparison that means something on a shared or noisy machine. Not part of `cargo test`.
#
#   tools/bench-two-builds.sh BASE.so NEW.so [ROUNDS] [WORKLOAD...]
#
# Build a baseline with e.g. `git worktree add /tmp/base <rev> && (cd /tmp/base && cargo
# build --release -p softgl-egl)`. Needs a C compiler and libglvnd (libegl-dev,
# libopengl-dev). THREADS overrides the thread counts (default "1 16").
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0"; exit 2; }
base=$(realpath "$1"); new=$(realpath "$2"); rounds=${3:-4}; shift $(( $# >= 3 ? 3 : 2 ))
workloads=${*:-fill_1080p_blend tris_200k_depth trilinear_1024 grid_4096_textures compile_link_100_lines draws_2000_ubo readback_1080p}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
cc -O2 -o "$tmp/workloads" "$here/benches/llvmpipe/workloads.c" -lEGL -lOpenGL
for v in base new; do
    lib=$base; [ $v = new ] && lib=$new
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' "$lib" > "$tmp/$v.json"
done
log=$tmp/runs.log
for round in $(seq 1 "$rounds"); do
    for t in ${THREADS:-1 16}; do
        for v in base new; do
            echo "== $v threads=$t round=$round" >> "$log"
            for w in $workloads; do
                SOFTGL_THREADS=$t SOFTGL_GL_VERSION_OVERRIDE=4.5 \
                    __EGL_VENDOR_LIBRARY_FILENAMES=$tmp/$v.json "$tmp/workloads" "$w" 2>/dev/null >> "$log" || true
            done
        done
    done
done
python3 - "$log" <<'PY'
import re, sys, statistics, collections
runs = collections.defaultdict(list)
cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== (\w+) threads=(\d+)", line)
    if m:
        cur = (m.group(1), int(m.group(2)))
        continue
    m = re.match(r"(\w+) ([\d.]+) \(pixel ([\d,]+)", line)
    if m and cur:
        runs[(cur[0], cur[1], m.group(1))].append((float(m.group(2)), m.group(3)))
for t in sorted({k[1] for k in runs}):
    for w in sorted({k[2] for k in runs}):
        b, n = runs.get(("base", t, w), []), runs.get(("new", t, w), [])
        if not b or not n:
            continue
        mb, mn = statistics.median(x for x, _ in b), statistics.median(x for x, _ in n)
        same = {p for _, p in b} == {p for _, p in n}
        print(f"{w:26s} threads={t:2d}  base {mb:9.2f} ms  new {mn:9.2f} ms  new/base {mn / mb:5.2f}"
              f"  {'same pixel' if same else 'PIXEL DIFFERS'}")
PY
rm -rf "$tmp"
