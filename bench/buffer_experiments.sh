#!/usr/bin/env bash
# Runs the memory-buffer experiments of "Anatomy of the LSM Memory Buffer" (DBTest'24,
# section 3) on sluice's memory components (docs/bench.md, "Memory-buffer experiments"):
#
#   bench/buffer_experiments.sh [--quick]
#
# Entries are the paper's 64 bytes (16-byte binary keys, 48-byte values), the buffer 16 MB.
# 1. footprint  buffer_footprint, 1.5M entries: every component at its defaults, and the hash
#               components over X (prefix_length) in {2,4,6,8,10} at H = 100K and over
#               H (bucket_count) in {10,100,1K,10K,100K} at X = 6
# 2. insert     buffer_insert, 140K entries: every component (the vector dynamic and
#               pre-allocated)
# 3. point      buffer_point: 200 point reads after 75% of 140K inserts: every component, and
#               hash-skiplist over X at H = 100K and over H at X = 6
# 4. range      buffer_range: 200 scans after 75% of 140K inserts at selectivity 0.0001, 0.02
#               and 0.4: every component
# 5. flushes    buffer_mix_insert through the whole database: --num 1M distinct keys; the
#               flushes, compactions and bytes come from the engine's counters
# 6. mix        the paper's four workload classes through the whole database, every component
#               and "adaptive": buffer_mix_insert, buffer_mix_point, buffer_mix_short_scan (16
#               entries) and buffer_mix_long_scan (1024 entries) at 0.1% queries (the paper's
#               Fig. 1), and buffer_mix_point at 4 reads per insert (read-heavy;
#               not for the vectors, which would sort after every insert)
#               Experiments 5 and 6 share their runs (bench/results/<date>-buffer-mix/) and use
#               the hash components' defaults (X = 8, H = one bucket per KiB: 16K), without WAL
#               (as the paper).
# The hash components of experiments 1-4 run with X = 6, H = 100K (the paper's best
# point-query setting) unless swept. Each point runs REPEATS times (3) through bench/run.sh into
# bench/results/<date>-buffer-<experiment>/<point>/ with a summary.md of medians.
# --quick: one repetition of each point under bench/results/tmp/ with 10x fewer entries.
#
# Environment: SLUICE_BENCH (default build/release/tools/sluice_bench), REPEATS,
# FOOTPRINT_NUM (1500000), OPS_NUM (140000), MIX_NUM (1000000), HEAVY_NUM (1000000),
# EXPERIMENTS (which to run: default "1 2 3 4 6"; 5 is part of 6).
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-buffer"
  : "${REPEATS:=1}" "${FOOTPRINT_NUM:=150000}" "${OPS_NUM:=14000}" "${MIX_NUM:=100000}"
  : "${HEAVY_NUM:=100000}"
else
  prefix="$date-buffer"
  : "${REPEATS:=3}" "${FOOTPRINT_NUM:=1500000}" "${OPS_NUM:=140000}" "${MIX_NUM:=1000000}"
  : "${HEAVY_NUM:=1000000}"
fi
: "${EXPERIMENTS:=1 2 3 4 6}"
run() { [[ " $EXPERIMENTS " == *" $1 "* ]]; }
common=(--engine=sluice --key_format=binary --key_size=16 --value_size=48
  --write_buffer_size=16MB)
components="vector vector-prealloc skiplist hash-skiplist hash-linklist flodb"
hash=(--prefix_length=6 --bucket_count=100000)

start=$(date +%s)

# --- 1. footprint ------------------------------------------------------------------------------
if run 1; then
for m in $components; do
  point footprint "$m" "${common[@]}" "${hash[@]}" --memtable="$m" \
    --benchmarks=buffer_footprint --num="$FOOTPRINT_NUM"
done
for m in hash-skiplist hash-linklist; do
  for x in 2 4 6 8 10; do
    point footprint "$m-X$x-H100000" "${common[@]}" --memtable="$m" --prefix_length=$x \
      --bucket_count=100000 --benchmarks=buffer_footprint --num="$FOOTPRINT_NUM"
  done
  for h in 10 100 1000 10000 100000; do
    point footprint "$m-X6-H$h" "${common[@]}" --memtable="$m" --prefix_length=6 \
      --bucket_count=$h --benchmarks=buffer_footprint --num="$FOOTPRINT_NUM"
  done
done

fi

# --- 2. insert latency --------------------------------------------------------------------------
if run 2; then
for m in $components; do
  point insert "$m" "${common[@]}" "${hash[@]}" --memtable="$m" --benchmarks=buffer_insert \
    --num="$OPS_NUM"
done

fi

# --- 3. point queries ---------------------------------------------------------------------------
if run 3; then
for m in $components; do
  point point "$m" "${common[@]}" "${hash[@]}" --memtable="$m" --benchmarks=buffer_point \
    --num="$OPS_NUM"
done
for x in 2 4 6 8 10; do
  point point "hash-skiplist-X$x-H100000" "${common[@]}" --memtable=hash-skiplist \
    --prefix_length=$x --bucket_count=100000 --benchmarks=buffer_point --num="$OPS_NUM"
done
for h in 10 100 1000 10000; do
  point point "hash-skiplist-X6-H$h" "${common[@]}" --memtable=hash-skiplist --prefix_length=6 \
    --bucket_count=$h --benchmarks=buffer_point --num="$OPS_NUM"
done

fi

# --- 4. range queries ---------------------------------------------------------------------------
if run 4; then
for s in 0.0001 0.02 0.4; do
  for m in $components; do
    point range "$m-s$s" "${common[@]}" "${hash[@]}" --memtable="$m" --benchmarks=buffer_range \
      --range_selectivity=$s --num="$OPS_NUM"
  done
done

fi

# --- 5 and 6. the workload classes through the database -----------------------------------------
if run 5 || run 6; then
  db_common=(--engine=sluice --key_format=binary --key_size=16 --value_size=48
    --write_buffer_size=16MB --prefix_length=8 --bucket_count=0 --disable_wal)
  for m in $components adaptive; do
    for class in insert point short_scan long_scan; do
      point mix "$class-$m" "${db_common[@]}" --memtable="$m" --benchmarks="buffer_mix_$class" \
        --num="$MIX_NUM" --mix_query_ratio=0.001
    done
    # A vector sorts after every insert here (minutes per run): left out.
    [[ $m == vector* ]] && continue
    point mix "point_heavy-$m" "${db_common[@]}" --memtable="$m" --benchmarks=buffer_mix_point \
      --num="$HEAVY_NUM" --mix_query_ratio=4
  done
fi

echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
