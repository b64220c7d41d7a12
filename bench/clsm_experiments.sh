#!/usr/bin/env bash
# Runs the experiments of cLSM's evaluation (EuroSys'15, section 5) on sluice, RocksDB and
# LevelDB:
#
#   bench/clsm_experiments.sh [--quick]
#
# 1. rmw          rmw_putifabsent (the paper's RMW) and rmw_increment, 1 and 2 threads:
#                 sluice's lock-free RMW (--rmw=native) against the lock-striped RMW
#                 (--rmw=striped) on sluice itself, RocksDB and LevelDB; plus rmw_increment on a
#                 small key space (contended keys)
# 2. readwrite    readrandomwriterandom, 50% Gets / 50% Puts
# 3. readskewed   Gets only, 90% of them on 10% of the keys
# 4. scans        scanwhilewriting: iterator (snapshot) scans of 100 keys while a thread writes
#                 (and sluice alone with --memtable=skiplist)
# 2-4 start from the same pre-loaded databases (fillrandom of MIXED_NUM keys). Keys and values
# are db_bench's defaults (16-byte decimal keys, 100-byte values), the WAL is on (no sync).
#
# Each point runs REPEATS times (3) through bench/run.sh, which writes
# bench/results/<date>-clsm-<experiment>/<point>/run-<i>.{json,txt} and summary.md (medians).
# 14 minutes on the project's 2-core machine. --quick: one short repetition of each point
# under bench/results/tmp/ (a check that everything runs, not a measurement).
#
# Environment: SLUICE_BENCH (default build/release/tools/sluice_bench), REPEATS, THREADS,
# SECONDS_PER_POINT, RMW_NUM, HOT_NUM, MIXED_NUM.
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-clsm"
  : "${REPEATS:=1}" "${THREADS:=2}" "${SECONDS_PER_POINT:=2}" "${MIXED_NUM:=200000}"
else
  prefix="$date-clsm"
  : "${REPEATS:=3}" "${THREADS:=1 2}" "${SECONDS_PER_POINT:=6}" "${MIXED_NUM:=1000000}"
fi
: "${RMW_NUM:=1000000}"  # key space of the RMW benchmarks
: "${HOT_NUM:=64}"       # key space of the contended increments
engines=sluice,rocksdb,leveldb

start=$(date +%s)

# --- 1. read-modify-write --------------------------------------------------------------------
for t in $THREADS; do
  for b in rmw_putifabsent rmw_increment; do
    point rmw "$b-t$t-native" --engine=sluice --rmw=native --benchmarks=$b --num="$RMW_NUM" \
      --threads="$t" --duration="$SECONDS_PER_POINT"
    point rmw "$b-t$t-striped" --engine=$engines --rmw=striped --benchmarks=$b \
      --num="$RMW_NUM" --threads="$t" --duration="$SECONDS_PER_POINT"
  done
  point rmw "rmw_increment_hot-t$t-native" --engine=sluice --rmw=native \
    --benchmarks=rmw_increment --num="$HOT_NUM" --threads="$t" --duration="$SECONDS_PER_POINT"
  point rmw "rmw_increment_hot-t$t-striped" --engine=$engines --rmw=striped \
    --benchmarks=rmw_increment --num="$HOT_NUM" --threads="$t" --duration="$SECONDS_PER_POINT"
done

# --- 2-4 start from the same pre-loaded databases -------------------------------------------
seed=$(mktemp -d /tmp/sluice_clsm_seed.XXXXXX)
trap 'rm -rf "$seed"' EXIT
preload "$seed" "$MIXED_NUM" "$engines"

for t in $THREADS; do
  SEED_DB=$seed point readwrite "t$t" --engine=$engines --use_existing_db=1 \
    --benchmarks=readrandomwriterandom --readwritepercent=50 --num="$MIXED_NUM" --threads="$t" \
    --duration="$SECONDS_PER_POINT"
  SEED_DB=$seed point readskewed "t$t" --engine=$engines --use_existing_db=1 \
    --benchmarks=readskewed --hot_op_fraction=0.9 --hot_key_fraction=0.1 --num="$MIXED_NUM" \
    --threads="$t" --duration="$SECONDS_PER_POINT"
  SEED_DB=$seed point scans "t$t" --engine=$engines --use_existing_db=1 \
    --benchmarks=scanwhilewriting --scan_length=100 --num="$MIXED_NUM" --threads="$t" \
    --duration="$SECONDS_PER_POINT"
  # sluice's iterators over the "skiplist" component need no Membuffer drain (docs/design.md).
  SEED_DB=$seed point scans "t$t-sluice_skiplist" --engine=sluice --memtable=skiplist \
    --use_existing_db=1 --benchmarks=scanwhilewriting --scan_length=100 --num="$MIXED_NUM" \
    --threads="$t" --duration="$SECONDS_PER_POINT"
done

echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
