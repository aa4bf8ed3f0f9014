#!/usr/bin/env bash
# Runs the piglit tests whose names match GROUP_REGEX (a `piglit run -t` regex, e.g.
# 'spec@arb_framebuffer_object@') from Debian's `piglit` package, on softgl (through
# libglvnd and softgl's EGL vendor library) or on Mesa's llvmpipe, and prints the
# pass/fail/skip/crash counts and each test that did not pass, marked known or not by
# conformance/piglit-known-failures.txt. Not part of `cargo test`. tools/piglit-bindless.sh
# is the same for the bindless group.
#
#   tools/piglit-group.sh GROUP_REGEX [results-dir]
#
# Environment: DRIVER (softgl, the default, or llvmpipe), PIGLIT (the piglit command,
# default `piglit`), PIGLIT_JOBS (default: cores), PIGLIT_TIMEOUT (seconds per test, default
# 120), PIGLIT_PROFILE (default quick), CARGO_TARGET_DIR (as for cargo), PROFILE (cargo
# profile of the driver build, default dev).
#
# Known failures are "name | reason" lines of conformance/piglit-known-failures.txt, the
# name in piglit's spelling (spec@arb_framebuffer_object@fbo-alpha, or with slashes); a
# name relative to its group folder (spec/GROUP/) matches too, as tools/piglit-bindless.sh's
# do.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

group=${1:?usage: tools/piglit-group.sh GROUP_REGEX [results-dir]}
piglit=${PIGLIT:-piglit}
if ! command -v "$piglit" >/dev/null 2>&1; then
    echo "piglit not found: install Debian's 'piglit' package (or set PIGLIT)." >&2
    exit 2
fi

driver=${DRIVER:-softgl}
target=${CARGO_TARGET_DIR:-$root/target}
slug=$(printf '%s' "$group" | tr -c 'A-Za-z0-9_' '-' | sed 's/-*$//')
results=${2:-$target/piglit-$driver-$slug}
rm -rf "$results"
mkdir -p "$results"

export PIGLIT_PLATFORM=surfaceless_egl
# No window-system framework: piglit draws into its own FBO. piglit's surfaceless "window"
# framework aborts after a test's display() returns, on llvmpipe as on softgl (checked with
# fbo-viewport, 2026-11-26), so this stays even with GL_ARB_framebuffer_object listed.
export PIGLIT_NO_WINDOW=1
case "$driver" in
softgl)
    profile=${PROFILE:-dev}
    case "$profile" in dev) profile_dir=debug ;; *) profile_dir=$profile ;; esac
    echo "== building the EGL driver (cargo build -p softgl-egl --profile $profile)"
    cargo build -q -p softgl-egl --profile "$profile"
    json="$target/$profile_dir/softgl_egl.json"
    [ -f "$json" ] || { echo "no vendor JSON at $json" >&2; exit 2; }
    # piglit's GL 4.x tests need a 4.x context; softgl's honest GL_VERSION is lower. The
    # override makes softgl CLAIM 4.5, as MESA_GL_VERSION_OVERRIDE would: the results say
    # what works under that claim, not that softgl is GL 4.5.
    echo "== NOTE: SOFTGL_GL_VERSION_OVERRIDE=4.5: softgl CLAIMS GL 4.5 for this run."
    export SOFTGL_GL_VERSION_OVERRIDE=4.5
    export __EGL_VENDOR_LIBRARY_FILENAMES="$json"
    ;;
llvmpipe)
    export __EGL_VENDOR_LIBRARY_FILENAMES=${MESA_VENDOR_JSON:-/usr/share/glvnd/egl_vendor.d/50_mesa.json}
    export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe
    ;;
*)
    echo "DRIVER must be softgl or llvmpipe" >&2
    exit 2
    ;;
esac

echo "== piglit run -p surfaceless_egl -t '$group' ${PIGLIT_PROFILE:-quick} ($driver)"
"$piglit" run -p surfaceless_egl \
    -t "$group" \
    -j "${PIGLIT_JOBS:-$(nproc)}" \
    --timeout "${PIGLIT_TIMEOUT:-120}" \
    "${PIGLIT_PROFILE:-quick}" "$results" >"$results/run.log" 2>&1 || {
        echo "piglit run failed; last lines of $results/run.log:" >&2
        tail -20 "$results/run.log" >&2
        exit 1
    }

"$piglit" summary console "$results" >"$results/summary.txt" 2>&1 || true
grep -E ': (pass|fail|crash|skip|timeout|warn|incomplete|notrun|dmesg-warn|dmesg-fail)$' \
    "$results/summary.txt" >"$results/statuses.txt" || true
echo
echo "== tests (piglit's own count; a test may have subtests):"
tr '\r' '\n' <"$results/run.log" | grep -E '^\[[0-9]+/[0-9]+\]' | tail -1
echo "== tests and subtests:"
sed -n '/^summary:/,$p' "$results/summary.txt" | grep -E '^\s*(pass|fail|crash|skip|timeout|warn|incomplete|total):'
echo
known="$root/conformance/piglit-known-failures.txt"
# The reason listed for `name` (full, or relative to spec/GROUP/), or nothing.
reason_of() {
    local full=$1 rel at
    rel=$(printf '%s' "$full" | cut -d/ -f3-)
    at=$(printf '%s' "$full" | tr '/' '@')
    awk -F ' [|] ' -v a="$full" -v b="$rel" -v c="$at" \
        '$1 == a || $1 == b || $1 == c { print $2; exit }' "$known" 2>/dev/null || true
}
if [ "$driver" = softgl ]; then
    echo "== tests that did not pass or skip (known reasons: conformance/piglit-known-failures.txt)"
else
    echo "== tests that did not pass or skip on llvmpipe"
fi
unknown=0
while IFS= read -r line; do
    name=${line%: *}
    reason=$(reason_of "$name")
    if [ "$driver" != softgl ]; then
        echo "$line"
    elif [ -n "$reason" ]; then
        echo "$line   [known: $reason]"
    else
        echo "$line   [NOT in the known-failures list]"
        unknown=$((unknown + 1))
    fi
done < <(grep -E ': (fail|crash|timeout|warn|incomplete)$' "$results/statuses.txt" || true)
if [ "$driver" = softgl ]; then
    # Known failures of this run's tests that pass now: the list must not hide progress.
    stale=0
    while IFS= read -r line; do
        name=${line%: *}
        if [ -n "$(reason_of "$name")" ]; then
            echo "$name: pass   [listed as a known failure: remove it]"
            stale=$((stale + 1))
        fi
    done < <(grep -E ': pass$' "$results/statuses.txt" || true)
    echo
    echo "$unknown result(s) not in the known-failures list, $stale known failure(s) that pass now"
fi
echo "results: $results (piglit summary html OUT $results for details)"
