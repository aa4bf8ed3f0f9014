#!/usr/bin/env bash
# Hostile-size shaders at full size (issue #11 item 2): builds examples/shader_stress.rs in
# release, then compiles and links each case in its own process and prints its time and
# peak memory (RSS). Usage: tools/shader-stress.sh [CASE SIZE]...
# Default cases: a 10,000-case switch, 100,000 uniforms (must fail to link on
# GL_MAX_FRAGMENT_UNIFORM_COMPONENTS), 10 MiB of source on one line, and the nesting caps.
# Each case gets TIMEOUT seconds (default 120) and MEM_MIB of address space (default 8192):
# a case past either is reported as such instead of stalling or swapping the machine.
set -euo pipefail
timeout_s=${TIMEOUT:-120}
mem_kib=$(( ${MEM_MIB:-8192} * 1024 ))
cd "$(dirname "$0")/.."
cargo build --release --quiet --example shader_stress
bin=target/release/examples/shader_stress
if [ $# -eq 0 ]; then
    set -- switch 1000 switch 10000 uniforms 10000 uniforms 100000 \
        oneline 1048576 oneline 10485760 oneline_uniform 1048576 oneline_uniform 10485760 parens 1000 blocks 999
fi
while [ $# -ge 2 ]; do
    case=$1 size=$2
    shift 2
    if [ -x /usr/bin/time ]; then
        out=$( (ulimit -v "$mem_kib"; /usr/bin/time -v timeout "$timeout_s" "$bin" "$case" "$size") \
            2>/tmp/shader-stress-time.$$) || out="$case $size: failed or timed out (exit $?)"
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' /tmp/shader-stress-time.$$)
        rm -f /tmp/shader-stress-time.$$
        echo "$out, peak RSS $((rss / 1024)) MiB"
    else
        # The example prints its own peak RSS (getrusage) when /usr/bin/time is missing.
        (ulimit -v "$mem_kib"; SHADER_STRESS_RUSAGE=1 timeout "$timeout_s" "$bin" "$case" "$size") ||
            echo "$case $size: failed or timed out (exit $?)"
    fi
done
