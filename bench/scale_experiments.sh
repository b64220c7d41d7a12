#!/usr/bin/env bash
# Runs the scale experiments ("Scale with data") on sluice, RocksDB and LevelDB, each engine in
# the same invocation, default Options:
#
#   bench/scale_experiments.sh [--quick]
#
# 1. ycsb       for each record count N of RECORDS: ycsb_load of N records, flush,
#               waitforcompaction, once, into YCSB_SEED_DIR-N (the load's output is kept as
#               records<N>-load.{txt,json}); then each repetition starts from a copy of those
#               databases (bench/run.sh's SEED_DB, --use_existing_db) and runs YCSB workloads
#               A, B, C, F, D, waitforcompaction, E (YCSB's order; E runs on D's database
#               without a reload, so its inserts rewrite keys D inserted), OPERATIONS (2M)
#               operations each on THREADS threads. The flush leaves no log to recover at open,
#               so A does not start with a flush and the compaction it triggers; 2M operations
#               give each workload a window that holds its share of the flushes and compactions
#               (with 500K, B and D last about a second, and one flush moves a round by a third).
#               Records are FIELDCOUNT fields of FIELDLENGTH bytes (10 x 10: 100-byte records,
#               as db_bench's values; YCSB's default is 10 x 100).
# 2. sustained  fillrandom for SUSTAINED_SECONDS (600) over a key space of SUSTAINED_KEYS,
#               throughput every 10 s (--stats_interval_seconds), then the write amplification
#               and the directory's size after close (the Disk line); plot_sustained.py draws
#               sustained.png and sustained.md from it.
# 3. space      a count-based fillrandom of SPACE_NUM (20M) keys, then close: the directory's
#               size and table files (the Disk line) against the live set.
#
# Each point runs REPEATS times through bench/run.sh into
# bench/results/<date>-scale-<experiment>/<point>/ (run-<i>.{json,txt}, summary.md).
# Measured durations on the project's 2-core machine are in docs/benchmarks.md ("At scale").
# --quick: one short repetition of each under bench/results/tmp/ (a check that everything
# runs, not a measurement).
#
# Environment: SLUICE_BENCH (default build/release/tools/sluice_bench), REPEATS, RECORDS
# ("20000000 50000000"), OPERATIONS, THREADS, FIELDCOUNT, FIELDLENGTH, SUSTAINED_SECONDS,
# SUSTAINED_KEYS, SPACE_NUM, YCSB_SEED_DIR (/tmp/sluice-ycsb-seed; removed after each record
# count; 20M records take about 2.5 GB for the three engines, and a copy per repetition),
# EXPERIMENTS ("ycsb sustained space"), ENGINES
# ("sluice,rocksdb,leveldb"; e.g. sluice,rocksdb for the sustained fill's medians in 20 minutes
# a round instead of 30).
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-scale"
  : "${REPEATS:=1}" "${RECORDS:=200000}" "${OPERATIONS:=20000}" "${SUSTAINED_SECONDS:=20}"
  : "${SUSTAINED_KEYS:=2000000}" "${SPACE_NUM:=200000}"
else
  prefix="$date-scale"
  : "${REPEATS:=1}" "${RECORDS:=20000000 50000000}" "${OPERATIONS:=2000000}"
  : "${SUSTAINED_SECONDS:=600}" "${SUSTAINED_KEYS:=1000000000}" "${SPACE_NUM:=20000000}"
fi
: "${THREADS:=2}" "${FIELDCOUNT:=10}" "${FIELDLENGTH:=10}" "${EXPERIMENTS:=ycsb sustained space}"
: "${ENGINES:=sluice,rocksdb,leveldb}"
engines=$ENGINES
start=$(date +%s)

for experiment in $EXPERIMENTS; do
  case $experiment in
    ycsb)
      for n in $RECORDS; do
        seed="${YCSB_SEED_DIR:-/tmp/sluice-ycsb-seed}-$n"
        out="bench/results/$prefix-ycsb"
        rm -rf "$seed"
        mkdir -p "$out"
        echo
        echo "=== ycsb / records$n: loading once into $seed ==="
        # LevelDB has no flush call (its line says so); its log is recovered at each open.
        "$SLUICE_BENCH" --engine=$engines --db="$seed" --num="$n" --threads="$THREADS" \
          --ycsb_fieldcount="$FIELDCOUNT" --ycsb_fieldlength="$FIELDLENGTH" \
          --benchmarks=ycsb_load,flush,waitforcompaction --json="$out/records$n-load.json" |
          tee "$out/records$n-load.txt"
        SEED_DB="$seed" point ycsb "records$n" --engine=$engines --use_existing_db --num="$n" \
          --threads="$THREADS" --ycsb_operationcount="$OPERATIONS" \
          --ycsb_fieldcount="$FIELDCOUNT" --ycsb_fieldlength="$FIELDLENGTH" \
          --benchmarks=ycsb_a,ycsb_b,ycsb_c,ycsb_f,ycsb_d,waitforcompaction,ycsb_e
        rm -rf "$seed"
      done
      ;;
    sustained)
      point sustained "seconds$SUSTAINED_SECONDS" --engine=$engines --benchmarks=fillrandom \
        --num="$SUSTAINED_KEYS" --duration="$SUSTAINED_SECONDS" --stats_interval_seconds=10
      python3 bench/plot_sustained.py "bench/results/$prefix-sustained/seconds$SUSTAINED_SECONDS"
      ;;
    space)
      point space "num$SPACE_NUM" --engine=$engines --benchmarks=fillrandom --num="$SPACE_NUM"
      ;;
    *) echo "unknown experiment '$experiment' (ycsb, sustained, space)" >&2; exit 2 ;;
  esac
done

echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
