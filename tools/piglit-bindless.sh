#!/usr/bin/env bash
# Runs piglit's spec@arb_bindless_texture group (Debian's `piglit` package) against softgl
# through libglvnd and softgl's EGL vendor library, and prints pass/fail/skip/crash counts
# and the names of the tests that did not pass. Not part of `cargo test`.
#
#   tools/piglit-bindless.sh [results-dir]
#
# Environment: PIGLIT (the piglit command, default `piglit`), PIGLIT_JOBS (default: cores),
# PIGLIT_TIMEOUT (seconds per test, default 120), CARGO_TARGET_DIR (as for cargo),
# PROFILE (cargo profile of the driver build, default dev). Known failures and why:
# conformance/piglit-known-failures.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

piglit=${PIGLIT:-piglit}
if ! command -v "$piglit" >/dev/null 2>&1; then
    echo "piglit not found: install Debian's 'piglit' package (or set PIGLIT)." >&2
    exit 2
fi

profile=${PROFILE:-dev}
target=${CARGO_TARGET_DIR:-$root/target}
case "$profile" in dev) profile_dir=debug ;; *) profile_dir=$profile ;; esac
echo "== building the EGL driver (cargo build -p softgl-egl --profile $profile)"
cargo build -q -p softgl-egl --profile "$profile"
json="$target/$profile_dir/softgl_egl.json"
[ -f "$json" ] || { echo "no vendor JSON at $json" >&2; exit 2; }

results=${1:-$target/piglit-bindless}
rm -rf "$results"
mkdir -p "$results"

# piglit's bindless tests demand GL 4.x (or 3.3 + extensions); softgl's honest GL_VERSION
# is lower. The override below makes softgl CLAIM 4.5, as Mesa's MESA_GL_VERSION_OVERRIDE
# would: results below say what works under that claim, not that softgl is GL 4.5.
echo "========================================================================"
echo "== NOTE: SOFTGL_GL_VERSION_OVERRIDE=4.5 is set for this run: softgl CLAIMS"
echo "== GL 4.5 so that piglit runs its GL 4.x tests. softgl is not GL 4.5."
echo "========================================================================"
export SOFTGL_GL_VERSION_OVERRIDE=4.5
export __EGL_VENDOR_LIBRARY_FILENAMES="$json"
export PIGLIT_PLATFORM=surfaceless_egl
# No window-system framework: piglit draws into its own FBO (-fbo). Without this piglit asks
# the surfaceless platform for a window and, when GL_ARB_framebuffer_object is not listed,
# aborts.
export PIGLIT_NO_WINDOW=1

echo "== piglit run -p surfaceless_egl -t spec@arb_bindless_texture quick"
"$piglit" run -p surfaceless_egl \
    -t 'spec@arb_bindless_texture@' \
    -j "${PIGLIT_JOBS:-$(nproc)}" \
    --timeout "${PIGLIT_TIMEOUT:-120}" \
    quick "$results" >"$results/run.log" 2>&1 || {
        echo "piglit run failed; last lines of $results/run.log:" >&2
        tail -20 "$results/run.log" >&2
        exit 1
    }

# "name: status" per test and subtest, then the totals.
"$piglit" summary console "$results" >"$results/summary.txt" 2>&1 || true
grep -E ': (pass|fail|crash|skip|timeout|warn|incomplete|notrun|dmesg-warn|dmesg-fail)$' \
    "$results/summary.txt" >"$results/statuses.txt" || true
echo
echo "== tests (piglit's own count; a test may have subtests):"
# piglit's last progress line, e.g. "[99/99] skip: 52, pass: 24, fail: 22, crash: 1".
tr '\r' '\n' <"$results/run.log" | grep -E '^\[[0-9]+/[0-9]+\]' | tail -1
echo "== tests and subtests:"
sed -n '/^summary:/,$p' "$results/summary.txt" | grep -E '^\s*(pass|fail|crash|skip|timeout|warn|incomplete|total):'
echo
echo "== tests that did not pass or skip (known reasons: conformance/piglit-known-failures.txt)"
# The known-failures file holds "name | reason" lines, names relative to
# spec/arb_bindless_texture/ (names contain spaces, hence the bar).
known="$root/conformance/piglit-known-failures.txt"
unknown=0
while IFS= read -r line; do
    name=${line%: *}
    name=${name#spec/arb_bindless_texture/}
    reason=$(awk -F ' [|] ' -v n="$name" '$1 == n { print $2; exit }' "$known" 2>/dev/null || true)
    if [ -n "$reason" ]; then
        echo "$line   [known: $reason]"
    else
        echo "$line   [NOT in the known-failures list]"
        unknown=$((unknown + 1))
    fi
done < <(grep -E ': (fail|crash|timeout|warn|incomplete)$' "$results/statuses.txt" || true)
# Known failures that pass now: the list must not hide progress (or a stale reason).
stale=0
while IFS= read -r name; do
    if grep -qxF "spec/arb_bindless_texture/$name: pass" "$results/statuses.txt"; then
        echo "spec/arb_bindless_texture/$name: pass   [listed as a known failure: remove it]"
        stale=$((stale + 1))
    fi
done < <(grep -v '^#' "$known" | awk -F ' [|] ' 'NF > 1 { print $1 }')
echo
echo "$unknown result(s) not in the known-failures list, $stale known failure(s) that pass now"
echo "results: $results (piglit summary html OUT $results for details)"
