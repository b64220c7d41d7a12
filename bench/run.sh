#!/usr/bin/env bash
# Runs a sluice_bench command several times and records the results:
#
#   bench/run.sh NAME REPEATS -- <sluice_bench flags...>
#
# writes bench/results/NAME/run-<i>.json (one per repetition, with the full command line and
# options inside), bench/results/NAME/run-<i>.txt (the printed output) and
# bench/results/NAME/summary.md (medians and ratios, see summarize.py). NAME may contain '/'
# (bench/flodb_experiments.sh keeps one subdirectory per point of an experiment). Repetition i
# runs the --engine list rotated left by i - 1, as sluice_bench's own --repeats does, so every
# engine runs first, in the middle and last equally often.
#
# Environment:
#   SLUICE_BENCH  the binary (default: build/release/tools/sluice_bench, the release preset)
#   SEED_DB       a directory of databases (<engine>/ subdirectories) copied into each
#                 repetition's --db directory first, for runs with --use_existing_db=1 that
#                 must all start from the same pre-loaded state
set -euo pipefail
name=$1
repeats=$2
shift 2
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${SLUICE_BENCH:-$root/build/release/tools/sluice_bench}"
out="$root/bench/results/$name"
mkdir -p "$out"
# The arguments with --engine=a,b,c rotated left by $1 (an --engine given as two words is kept).
rotated_args() {
  local shift_by=$1 arg
  shift
  for arg in "$@"; do
    if [[ "$arg" == --engine=* ]]; then
      IFS=, read -r -a list <<<"${arg#--engine=}"
      local n=${#list[@]} out=() k
      for ((k = 0; k < n; k++)); do out+=("${list[$(((k + shift_by) % n))]}"); done
      (IFS=,; printf '%s\n' "--engine=${out[*]}")
    else
      printf '%s\n' "$arg"
    fi
  done
}
for i in $(seq 1 "$repeats"); do
  mapfile -t args < <(rotated_args $((i - 1)) "$@")
  db=$(mktemp -d /tmp/sluice_bench.XXXXXX)
  if [ -n "${SEED_DB:-}" ]; then
    cp -a "$SEED_DB"/. "$db"/
    # The copy's gigabytes are written back now, not during the first engine's run (which
    # otherwise shares the disk and a core with the kernel's writeback).
    sync
  fi
  "$bin" "${args[@]}" --db="$db" --json="$out/run-$i.json" | tee "$out/run-$i.txt"
  rm -rf "$db"
done
python3 "$root/bench/summarize.py" "$out"/run-*.json | tee "$out/summary.md"
