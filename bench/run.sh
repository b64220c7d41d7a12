#!/usr/bin/env bash
# Runs a sluice_bench command several times and records the results:
#
#   bench/run.sh NAME REPEATS -- <sluice_bench flags...>
#
# writes bench/results/NAME/run-<i>.json (one per repetition, with the full command line and
# options inside), bench/results/NAME/run-<i>.txt (the printed output) and
# bench/results/NAME/summary.md (medians and ratios, see summarize.py). NAME may contain '/'
# (bench/flodb_experiments.sh keeps one subdirectory per point of an experiment).
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
for i in $(seq 1 "$repeats"); do
  db=$(mktemp -d /tmp/sluice_bench.XXXXXX)
  if [ -n "${SEED_DB:-}" ]; then
    cp -a "$SEED_DB"/. "$db"/
    # The copy's gigabytes are written back now, not during the first engine's run (which
    # otherwise shares the disk and a core with the kernel's writeback).
    sync
  fi
  "$bin" "$@" --db="$db" --json="$out/run-$i.json" | tee "$out/run-$i.txt"
  rm -rf "$db"
done
python3 "$root/bench/summarize.py" "$out"/run-*.json | tee "$out/summary.md"
