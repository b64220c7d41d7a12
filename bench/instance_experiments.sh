#!/usr/bin/env bash
# What open databases and column families cost a process, for sluice (default "flodb" and
# "skiplist" memory components), RocksDB's release build and LevelDB: bench/instances/
# instance_cost.c opens N databases (or one with N column families) with each engine's default
# Options through its C API, writes KEYS keys of VALUE_SIZE bytes into each, and reports the
# RSS and threads it added. Every measurement is a process of its own; ROUNDS rounds, the
# engines rotated each round; bench/results/<date>-instances/{runs.jsonl,summary.md}.
#
#   bench/instance_experiments.sh        # DBS="1 20 100" FAMILIES=100 KEYS=1000 ROUNDS=3
#
# Needs the release build (make build: build/release/tools/sluice_instance_cost), the RocksDB
# release library (scripts/fetch-rocksdb-release.sh, run by make deps) and Debian's libleveldb-dev.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dbs_list=${DBS:-1 20 100}
families=${FAMILIES:-100}
keys=${KEYS:-1000}
value_size=${VALUE_SIZE:-100}
rounds=${ROUNDS:-3}
date=$(date -u +%Y-%m-%d)
out="bench/results/$date-instances"
sluice_bin=build/release/tools/sluice_instance_cost
rocksdb_lib=$(readlink -f "${SLUICE_DEPS_DIR:-$root/.deps}/rocksdb/librocksdb-release.so" || true)
[ -x "$sluice_bin" ] || { echo "$sluice_bin not found: run make build" >&2; exit 1; }
[ -f "$rocksdb_lib" ] || { echo "no RocksDB release library: run scripts/fetch-rocksdb-release.sh" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -DUSE_ROCKSDB bench/instances/instance_cost.c -o "$tmp/rocksdb_cost" "$rocksdb_lib" -lpthread
cc -O2 -DUSE_LEVELDB bench/instances/instance_cost.c -o "$tmp/leveldb_cost" -lleveldb

mkdir -p "$out"
: > "$out/runs.jsonl"
{
  echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "sluice $(sed -n 's/^project(sluice VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt) (release build," \
    "shared library); RocksDB $(cat "$(dirname "$rocksdb_lib")/VERSION" 2>/dev/null || basename "$rocksdb_lib")" \
    "(release build, $(basename "$rocksdb_lib")); LevelDB $(dpkg-query -W -f='${Version}' libleveldb1d 2>/dev/null || echo '?') (Debian)"
} > "$out/header.txt"
cat "$out/header.txt"

run() {  # run NAME ARGS...: one measurement in a fresh process and directory
  local name=$1
  shift
  local dir="$tmp/db"
  rm -rf "$dir"
  local line
  line=$("$@" --dir="$dir" --keys="$keys" --value_size="$value_size")
  echo "{\"config\": \"$name\", ${line#\{}" | tee -a "$out/runs.jsonl"
  rm -rf "$dir"
}

for round in $(seq 1 "$rounds"); do
  engines=(sluice-flodb sluice-skiplist rocksdb leveldb)
  shift_by=$(( (round - 1) % ${#engines[@]} ))
  engines=("${engines[@]:$shift_by}" "${engines[@]:0:$shift_by}")
  for n in $dbs_list; do
    for e in "${engines[@]}"; do
      case $e in
        sluice-flodb) run "$e" "$sluice_bin" --dbs="$n" --memtable=flodb ;;
        sluice-skiplist) run "$e" "$sluice_bin" --dbs="$n" --memtable=skiplist ;;
        rocksdb) run "$e" "$tmp/rocksdb_cost" --dbs="$n" ;;
        leveldb) run "$e" "$tmp/leveldb_cost" --dbs="$n" ;;
      esac
    done
  done
  for e in "${engines[@]}"; do
    case $e in
      sluice-flodb) run "$e" "$sluice_bin" --dbs=1 --families="$families" --memtable=flodb ;;
      sluice-skiplist) run "$e" "$sluice_bin" --dbs=1 --families="$families" --memtable=skiplist ;;
      rocksdb) run "$e" "$tmp/rocksdb_cost" --dbs=1 --families="$families" ;;
      leveldb) ;;  # no column families
    esac
  done
done

python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
runs = [json.loads(l) for l in open(f"{out}/runs.jsonl")]
header = open(f"{out}/header.txt").read().strip()
groups = {}
for r in runs:
    what = f"{r['families']} families" if r["families"] > 1 else f"{r['dbs']} DBs"
    groups.setdefault((what, r["config"]), []).append(r)
whats = sorted({k[0] for k in groups}, key=lambda w: (w.endswith("families"), int(w.split()[0])))
configs = ["sluice-flodb", "sluice-skiplist", "rocksdb", "leveldb"]
lines = [header, "", "Median of the rounds: RSS added (MiB) / threads added, after writing "
         f"{runs[0]['keys']} keys of {runs[0]['value_size']} bytes into each database or family.", "",
         "| | " + " | ".join(whats) + " |", "|---|" + "---|" * len(whats)]
for c in configs:
    cells = []
    for w in whats:
        g = groups.get((w, c))
        if not g:
            cells.append("n/a")
            continue
        rss = statistics.median(r["rss_added_kib"] for r in g) / 1024
        thr = statistics.median(r["threads_after"] - r["threads_before"] for r in g)
        tot = statistics.median(r["threads_after"] for r in g)
        cells.append(f"+{rss:.1f} MiB, +{thr:.0f} threads ({tot:.0f} in all)")
    lines.append(f"| {c} | " + " | ".join(cells) + " |")
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
