#!/usr/bin/env bash
# Runs piglit's `.shader_test` files through both `softgl run FILE` (the CLI, cli/) and
# piglit's own `shader_runner FILE -auto -fbo` on softgl's EGL driver, and compares the
# verdicts (pass / fail / skip). The two read the same files on the same GL implementation,
# so a different verdict is a difference between the CLI's reading of the format and
# shader_runner's, unless the CLI reports an `unsupported command` (counted apart, by
# command). Not part of `cargo test`; needs Debian's `piglit` package.
#
#   tools/shader-test-compare.sh [-j JOBS] [-t SECONDS] [-n SAMPLE] [-o DIR] [GROUP...]
#
# GROUP: piglit test folders relative to piglit's tests/ (default: spec/arb_bindless_texture
# spec/glsl-3.30 spec/glsl-1.50). -j: parallel jobs (default: cores); -t: timeout per run
# (default 20 s); -n: run only every file whose index is a multiple of ceil(count/SAMPLE),
# i.e. about SAMPLE files per group; -o: results folder (default target/shader-test-compare).
# Environment: PIGLIT_TESTS (piglit's tests/ folder), SHADER_RUNNER (the binary),
# PROFILE (cargo profile of the builds, default release), CARGO_TARGET_DIR.
#
# Both runs get SOFTGL_GL_VERSION_OVERRIDE=4.5 (softgl CLAIMS GL 4.5 so that the GL 3.x/4.x
# tests run at all; it does not implement more because of it) and SOFTGL_THREADS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

jobs=$(nproc)
timeout_s=20
sample=0
results=""
while getopts "j:t:n:o:h" opt; do
    case "$opt" in
        j) jobs=$OPTARG ;;
        t) timeout_s=$OPTARG ;;
        n) sample=$OPTARG ;;
        o) results=$OPTARG ;;
        *) sed -n '2,20p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(spec/arb_bindless_texture spec/glsl-3.30 spec/glsl-1.50)

tests_dir=${PIGLIT_TESTS:-}
if [ -z "$tests_dir" ]; then
    for d in /usr/lib/*/piglit/tests /usr/lib/piglit/tests; do
        [ -d "$d/spec" ] && { tests_dir=$d; break; }
    done
fi
runner=${SHADER_RUNNER:-}
if [ -z "$runner" ]; then
    for f in /usr/lib/*/piglit/bin/shader_runner /usr/lib/piglit/bin/shader_runner; do
        [ -x "$f" ] && { runner=$f; break; }
    done
fi
if [ -z "$tests_dir" ] || [ -z "$runner" ]; then
    echo "piglit's tests or shader_runner not found: install Debian's 'piglit' package" \
        "(or set PIGLIT_TESTS and SHADER_RUNNER)." >&2
    exit 2
fi

profile=${PROFILE:-release}
target=${CARGO_TARGET_DIR:-$root/target}
case "$profile" in dev) profile_dir=debug ;; *) profile_dir=$profile ;; esac
echo "== building the CLI and the EGL driver (cargo build -p softgl-cli -p softgl-egl --profile $profile)"
cargo build -q -p softgl-cli -p softgl-egl --profile "$profile"
softgl="$target/$profile_dir/softgl"
json="$target/$profile_dir/softgl_egl.json"
[ -x "$softgl" ] && [ -f "$json" ] || { echo "no $softgl or $json" >&2; exit 2; }

results=${results:-$target/shader-test-compare}
rm -rf "$results"
mkdir -p "$results/out"

echo "== NOTE: SOFTGL_GL_VERSION_OVERRIDE=4.5: softgl CLAIMS GL 4.5 for these runs; it is not GL 4.5."
export SOFTGL_GL_VERSION_OVERRIDE=4.5 SOFTGL_THREADS=1
export PIGLIT_PLATFORM=surfaceless_egl PIGLIT_NO_WINDOW=1
export __EGL_VENDOR_LIBRARY_FILENAMES="$json"
export SOFTGL="$softgl" RUNNER="$runner" TIMEOUT_S="$timeout_s" RESULTS="$results"
export TESTS_DIR="$tests_dir"

# One file: both verdicts, one line "piglit cli file [unsupported command]" in its own file.
compare_one() {
    local file=$1 rel key p c unsupported=""
    rel=${file#"$TESTS_DIR"/}
    key=$(printf '%s' "$rel" | tr '/' '@')
    # piglit reports `PIGLIT: {"result": "pass" }` (the last one counts).
    timeout -k 5 "$TIMEOUT_S" "$RUNNER" "$file" -auto -fbo \
        >"$RESULTS/out/$key.piglit" 2>&1 && true
    local rc=$?
    p=$(grep -o '"result": *"[a-z]*"' "$RESULTS/out/$key.piglit" | tail -1 |
        sed 's/.*"\([a-z]*\)"$/\1/')
    if [ -z "$p" ]; then
        case $rc in 124 | 137) p=timeout ;; *) p=crash ;; esac
    fi
    timeout -k 5 "$TIMEOUT_S" "$SOFTGL" run "$file" >"$RESULTS/out/$key.cli" 2>&1 && true
    rc=$?
    case $rc in
        0) c=pass ;;
        1) c=fail ;;
        77) c=skip ;;
        124 | 137) c=timeout ;;
        *) c=crash ;;
    esac
    if grep -q 'unsupported command' "$RESULTS/out/$key.cli"; then
        unsupported=$(grep -o 'unsupported command `[^`]*`' "$RESULTS/out/$key.cli" | head -1 |
            sed 's/unsupported command `\(.*\)`/\1/')
        c=unsupported
    fi
    printf '%s %s %s %s\n' "$p" "$c" "$rel" "$unsupported" >"$RESULTS/out/$key.verdict"
}
export -f compare_one

start=$(date +%s)
: >"$results/files.txt"
for g in "${groups[@]}"; do
    list=$(find "$tests_dir/$g" -name '*.shader_test' | sort)
    count=$(printf '%s\n' "$list" | grep -c . || true)
    if [ "$sample" -gt 0 ] && [ "$count" -gt "$sample" ]; then
        step=$(((count + sample - 1) / sample))
        list=$(printf '%s\n' "$list" | awk -v s="$step" '(NR - 1) % s == 0')
        echo "== $g: $count files, sampling every ${step}th"
    else
        echo "== $g: $count files"
    fi
    printf '%s\n' "$list" | grep . >>"$results/files.txt" || true
done
xargs -a "$results/files.txt" -d '\n' -P "$jobs" -I{} bash -c 'compare_one "$1"' _ {}
cat "$results"/out/*.verdict | sort -k3 >"$results/verdicts.txt"
elapsed=$(($(date +%s) - start))

echo
for g in "${groups[@]}"; do
    awk -v g="$g/" '
        index($3, g) == 1 {
            n++
            if ($2 == "unsupported") u++
            else if ($1 == $2) same++
            else diff++
        }
        END { printf "%-28s %4d files: %4d same verdict, %3d different, %3d unsupported command\n",
              g, n, same, diff, u }' "$results/verdicts.txt"
done
echo "(verdicts piglit/cli per file: $results/verdicts.txt; outputs: $results/out/; ${elapsed} s)"

echo
echo "== same verdict, by verdict (piglit = cli)"
awk '$2 != "unsupported" && $1 == $2 { print $1 }' "$results/verdicts.txt" | sort | uniq -c
echo
echo "== different verdict (piglit cli file)"
awk '$2 != "unsupported" && $1 != $2 { print $1, $2, $3 }' "$results/verdicts.txt"
echo
echo "== unsupported command, by command (files; piglit's verdict)"
awk '$2 == "unsupported" { $2 = ""; print }' "$results/verdicts.txt" |
    awk '{ cmd = ""; for (i = 3; i <= NF; i++) cmd = cmd (i > 3 ? " " : "") $i; n[cmd]++; v[cmd] = v[cmd] " " $1 }
         END { for (c in n) printf "%4d  %s  (piglit:%s)\n", n[c], c, v[c] }' | sort -rn
