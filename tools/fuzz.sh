#!/usr/bin/env bash
# Long fuzz runs of softgl's stable-Rust fuzz targets (examples/fuzz/, issue #11 item 6).
#
#   tools/fuzz.sh TARGET [START_SEED] [CASES] [BATCH] [TIMEOUT_S]
#
# TARGET is `glsl` (mutated corpus shaders through preprocess/parse/compile/link/JIT/draw)
# or `api` (random GL command sequences). Cases START_SEED .. START_SEED+CASES run in
# batches of BATCH per process (default 500), each batch under TIMEOUT_S seconds (default
# 300). A failing case (panic, malformed IR), a crash (signal) or a hang (timeout) is saved
# under fuzz-findings/ with its seed; the run then goes on after that case. At the end it
# prints how many cases ran and what was found. Replay one case:
#   cargo run --release --example fuzz -- TARGET --seed S
# GLSL inputs are mutations of the conformance corpus, so a seed replays the same input
# only while the corpus is unchanged: the finding's .input file keeps the input itself.
set -u
target=${1:?usage: tools/fuzz.sh glsl|api [START_SEED] [CASES] [BATCH] [TIMEOUT_S]}
start=${2:-0}
cases=${3:-10000}
batch=${4:-500}
limit=${5:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --example fuzz >&2 || exit 1
bin=$root/target/release/examples/fuzz
out=$root/fuzz-findings
mkdir -p "$out"
progress=$(mktemp)
trap 'rm -f "$progress"' EXIT
seed=$start
end=$((start + cases))
ran=0
found=0
while [ "$seed" -lt "$end" ]; do
  n=$((end - seed < batch ? end - seed : batch))
  : > "$progress"
  log=$(mktemp)
  timeout "$limit" "$bin" "$target" --seed "$seed" --cases "$n" --progress "$progress" > "$log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    ran=$((ran + n)); seed=$((seed + n)); rm -f "$log"; continue
  fi
  # The case that failed, crashed or hung is the last one the progress file names.
  bad=$(awk '{print $2}' "$progress")
  bad=${bad:-$seed}
  case $rc in
    1) kind=fail ;;
    124) kind=hang ;;
    *) kind="crash-rc$rc" ;;
  esac
  found=$((found + 1))
  { echo "target=$target seed=$bad kind=$kind"; tail -c 20000 "$log"; } > "$out/$target-$bad-$kind.txt"
  if [ "$target" = glsl ]; then
    # The input itself, generated without running it.
    "$bin" glsl --seed "$bad" --print > "$out/$target-$bad-$kind.input" 2>&1 || true
  fi
  echo "found: $target seed $bad ($kind) -> $out/$target-$bad-$kind.txt" >&2
  ran=$((ran + bad - seed + 1)); seed=$((bad + 1)); rm -f "$log"
done
echo "$target: $ran cases (seeds $start..$end), $found findings in $out"
