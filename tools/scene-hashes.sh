#!/usr/bin/env bash
# Renders every conformance scene with one `softgl` CLI build and prints "sha256  scene" per
# line (the PNG of the final framebuffer), so two builds or two thread counts can be diffed:
#   tools/scene-hashes.sh ./target/release/softgl 1  > /tmp/a.txt
#   tools/scene-hashes.sh /path/to/other/softgl 16  > /tmp/b.txt && diff /tmp/a.txt /tmp/b.txt
# Scenes that do not render (SKIP or a compile error) print "-" instead of a hash.
set -uo pipefail
export LC_ALL=C  # one scene order on every machine (glob order follows the locale)
# Scenes run on the context their [require] asks for, as piglit runs do (README).
export SOFTGL_GL_VERSION_OVERRIDE=${SOFTGL_GL_VERSION_OVERRIDE:-4.5}
bin=${1:?usage: scene-hashes.sh SOFTGL_BIN [THREADS]}
threads=${2:-1}
root="$(cd "$(dirname "$0")/.." && pwd)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "$root"/conformance/scenes/*.shader_test "$root"/conformance/glsl/*.shader_test; do
    name=${f#"$root"/conformance/}
    png="$out/x.png"
    rm -f "$png"
    "$bin" run --threads "$threads" -o "$png" "$f" >/dev/null 2>&1
    if [ -f "$png" ]; then
        echo "$(sha256sum <"$png" | cut -c1-16)  $name"
    else
        echo "-  $name"
    fi
done
