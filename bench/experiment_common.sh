# bench/experiment_common.sh — sourced by the experiment suites (flodb_experiments.sh,
# clsm_experiments.sh): parses their one option, finds sluice_bench, and defines point().
#
# After sourcing: $root (the repository, also the working directory), $quick (1 with --quick),
# $date (UTC, YYYY-MM-DD), SLUICE_BENCH exported, preload() (below). point EXPERIMENT NAME FLAGS... runs
# bench/run.sh "$prefix-EXPERIMENT/NAME" "$REPEATS" -- FLAGS (set prefix and REPEATS first).

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

if [ -z "${SLUICE_BENCH:-}" ]; then
  for candidate in build/release/tools/sluice_bench build/tools/sluice_bench; do
    if [ -x "$candidate" ]; then SLUICE_BENCH="$root/$candidate"; break; fi
  done
fi
if [ ! -x "${SLUICE_BENCH:-}" ]; then
  echo "sluice_bench not found: build it (cmake --preset release && cmake --build build/release)" \
    "or set SLUICE_BENCH" >&2
  exit 1
fi
export SLUICE_BENCH

date=$(date -u +%Y-%m-%d)

# preload DIR NUM ENGINES: a count-based fillrandom of NUM keys into DIR (one subdirectory per
# engine), for points that start from the same databases (SEED_DB=DIR point ...).
preload() {
  local dir=$1 num=$2 engines=$3
  echo
  echo "=== pre-loading $num keys (fillrandom) into $dir ==="
  "$SLUICE_BENCH" --engine="$engines" --benchmarks=fillrandom --num="$num" --db="$dir" |
    grep -E '^(fillrandom|== engine)'
}

point() {
  local experiment=$1 name=$2
  shift 2
  echo
  echo "=== $experiment / $name ==="
  bench/run.sh "$prefix-$experiment/$name" "$REPEATS" -- "$@"
}
