#!/usr/bin/env bash
# What open databases and column families cost a process, and one memory budget shared by many
# databases, for sluice and RocksDB's release build (and LevelDB for the costs). Two
# experiments (EXPERIMENTS, default both):
#
#   costs   bench/instances/instance_cost.c opens N databases (or one with N column families)
#           with each engine's default Options through its C API, writes KEYS keys of
#           VALUE_SIZE bytes into each, and reports the RSS and threads it added; sluice with
#           its default "flodb" and its "skiplist" memory components, RocksDB, LevelDB.
#           bench/results/<date>-instances/{runs.jsonl,summary.md}.
#   budget  bench/instances/budget_fill.c opens BUDGET_DBS databases with default Options and
#           one write buffer manager, fills them all at once (BUDGET_NUM random keys of
#           VALUE_SIZE bytes over BUDGET_THREADS threads) and samples the manager's bytes
#           every millisecond; with a budget of BUDGET_MB MiB (stalls allowed) and with none
#           (sluice's manager then only counts; RocksDB's reports nothing). sluice and RocksDB.
#           bench/results/<date>-budget/{runs.jsonl,summary.md}.
#
# Every measurement is a process of its own; ROUNDS rounds, the engines rotated each round.
#
#   bench/instance_experiments.sh   # DBS="1 20 100" FAMILIES=100 KEYS=1000 ROUNDS=3
#                                   # BUDGET_DBS=10 BUDGET_MB=64 BUDGET_NUM=2000000 BUDGET_THREADS=2
#
# Needs the release build (make build: build/release/tools/sluice_instance_cost and
# sluice_budget_fill), the RocksDB release library (scripts/fetch-rocksdb-release.sh, run by
# make deps) and Debian's libleveldb-dev.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dbs_list=${DBS:-1 20 100}
families=${FAMILIES:-100}
keys=${KEYS:-1000}
value_size=${VALUE_SIZE:-100}
rounds=${ROUNDS:-3}
experiments=${EXPERIMENTS:-costs budget}
date=$(date -u +%Y-%m-%d)
rocksdb_lib=$(readlink -f "${SLUICE_DEPS_DIR:-$root/.deps}/rocksdb/librocksdb-release.so" || true)
for bin in build/release/tools/sluice_instance_cost build/release/tools/sluice_budget_fill; do
  [ -x "$bin" ] || { echo "$bin not found: run make build" >&2; exit 1; }
done
[ -f "$rocksdb_lib" ] || { echo "no RocksDB release library: run scripts/fetch-rocksdb-release.sh" >&2; exit 1; }
want() { [[ " $experiments " == *" $1 "* ]]; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -DUSE_ROCKSDB bench/instances/instance_cost.c -o "$tmp/rocksdb_cost" "$rocksdb_lib" -lpthread
cc -O2 -DUSE_LEVELDB bench/instances/instance_cost.c -o "$tmp/leveldb_cost" -lleveldb
cc -O2 -DUSE_ROCKSDB bench/instances/budget_fill.c -o "$tmp/rocksdb_fill" "$rocksdb_lib" -lpthread

header() {  # header OUT [LINE]: the run's date, commit, CPU and engines into OUT/header.txt
  mkdir -p "$1"
  : > "$1/runs.jsonl"
  {
    echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
    echo "sluice $(sed -n 's/^project(sluice VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt) (release build," \
      "shared library); RocksDB $(cat "$(dirname "$rocksdb_lib")/VERSION" 2>/dev/null || basename "$rocksdb_lib")" \
      "(release build, $(basename "$rocksdb_lib")); LevelDB $(dpkg-query -W -f='${Version}' libleveldb1d 2>/dev/null || echo '?') (Debian)"
    [ -z "${2:-}" ] || echo "$2"
  } > "$1/header.txt"
  cat "$1/header.txt"
}

run() {  # run NAME ARGS...: one measurement in a fresh process and directory, into $out
  local name=$1
  shift
  local dir="$tmp/db"
  rm -rf "$dir"
  local line
  line=$("$@" --dir="$dir")
  echo "{\"config\": \"$name\", ${line#\{}" | tee -a "$out/runs.jsonl"
  rm -rf "$dir"
}

if want costs; then
out="bench/results/$date-instances"
header "$out"
sluice_bin=build/release/tools/sluice_instance_cost
size=(--keys="$keys" --value_size="$value_size")
for round in $(seq 1 "$rounds"); do
  engines=(sluice-flodb sluice-skiplist rocksdb leveldb)
  shift_by=$(( (round - 1) % ${#engines[@]} ))
  engines=("${engines[@]:$shift_by}" "${engines[@]:0:$shift_by}")
  for n in $dbs_list; do
    for e in "${engines[@]}"; do
      case $e in
        sluice-flodb) run "$e" "$sluice_bin" "${size[@]}" --dbs="$n" --memtable=flodb ;;
        sluice-skiplist) run "$e" "$sluice_bin" "${size[@]}" --dbs="$n" --memtable=skiplist ;;
        rocksdb) run "$e" "$tmp/rocksdb_cost" "${size[@]}" --dbs="$n" ;;
        leveldb) run "$e" "$tmp/leveldb_cost" "${size[@]}" --dbs="$n" ;;
      esac
    done
  done
  for e in "${engines[@]}"; do
    case $e in
      sluice-flodb) run "$e" "$sluice_bin" "${size[@]}" --dbs=1 --families="$families" --memtable=flodb ;;
      sluice-skiplist) run "$e" "$sluice_bin" "${size[@]}" --dbs=1 --families="$families" --memtable=skiplist ;;
      rocksdb) run "$e" "$tmp/rocksdb_cost" "${size[@]}" --dbs=1 --families="$families" ;;
      leveldb) ;;  # no column families
    esac
  done
done

python3 bench/summarize_instances.py costs "$out"
fi

if want budget; then
budget_dbs=${BUDGET_DBS:-10}
budget_mb=${BUDGET_MB:-64}
budget_num=${BUDGET_NUM:-2000000}
budget_threads=${BUDGET_THREADS:-2}
out="bench/results/$date-budget"
header "$out" "$budget_dbs databases, $budget_num keys of $value_size bytes over $budget_threads threads, budget $budget_mb MiB"
fill=(--dbs="$budget_dbs" --num="$budget_num" --threads="$budget_threads" --value_size="$value_size")
for round in $(seq 1 "$rounds"); do
  engines=(sluice rocksdb)
  (( round % 2 == 0 )) && engines=(rocksdb sluice)
  for budget in "$budget_mb" 0; do
    for e in "${engines[@]}"; do
      case $e in
        sluice) run "sluice-budget$budget" build/release/tools/sluice_budget_fill "${fill[@]}" --budget_mb="$budget" ;;
        rocksdb) run "rocksdb-budget$budget" "$tmp/rocksdb_fill" "${fill[@]}" --budget_mb="$budget" ;;
      esac
    done
  done
done

python3 bench/summarize_instances.py budget "$out"
fi
