#!/usr/bin/env bash
# Runs the read experiments (the targets of "Reads and scans on the default component") on
# sluice, RocksDB and LevelDB, each engine in the same invocation, default Options:
#
#   bench/read_experiments.sh [--quick]
#
# 1. reads      fillrandom, overwrite, readrandom, readseq, readreverse, seekrandom on NUM keys
#               (db_bench's 16-byte decimal keys, 100-byte values)
# 2. whilewriting  after a count-based fillrandom of NUM keys (pre-loaded once, copied into each
#               repetition): scanwhilewriting (iterator scans of 100 keys, one writer beside
#               them) and readwhilewriting, SECONDS_PER_POINT each
# 3. multiget   from the same pre-load: readrandom (which also lets each engine settle after
#               reopening), then multireadrandom (--reads keys in batches of B, each one MultiGet;
#               LevelDB, which has none, does Gets in a loop) for B in MULTIGET_BATCHES with
#               random keys, and B = 32 with neighbouring keys (--multiread_stride=1); each also
#               with --multiget_as_gets (every engine through Gets in a loop, timed per batch the
#               same way: the baseline)
# 4. rangedel   from the same pre-load, sluice and RocksDB (LevelDB has no range deletion), for
#               T in RANGEDEL_COUNTS (0 1000): readrandom (settling), deleterange (T range
#               tombstones of 10 keys at random places), then readrandom and seekrandom with the
#               tombstones in memory, flush, and readrandom #2 / seekrandom #2 with them in an
#               SST file above the data (no compaction runs meanwhile: they stay live)
# 5. scale      (only with SCALE_NUM set, e.g. 20000000) fillrandom of SCALE_NUM keys, compact,
#               then readrandom and seekrandom (SCALE_READS each) with a 32 MB block cache
#
# Each point runs REPEATS times (3) through bench/run.sh, which writes
# bench/results/<date>-reads-<experiment>/<point>/run-<i>.{json,txt} and summary.md (medians
# and ratios). 1 to 4 take about 18 minutes on the project's 2-core machine; 5 with
# SCALE_NUM=20000000 about 26 minutes more. --quick: one short repetition of 1 to 4 under
# bench/results/tmp/ (a check that everything runs, not a measurement).
#
# Environment: SLUICE_BENCH (default build/release/tools/sluice_bench), REPEATS, NUM,
# SECONDS_PER_POINT, MULTIGET_BATCHES, MULTIGET_READS, RANGEDEL_COUNTS, SCALE_NUM, SCALE_READS,
# EXPERIMENTS ("reads whilewriting multiget rangedel": which of 1-4 to run; 5 runs whenever
# SCALE_NUM is set).
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-reads"
  : "${REPEATS:=1}" "${NUM:=100000}" "${SECONDS_PER_POINT:=2}" "${MULTIGET_READS:=20000}"
else
  prefix="$date-reads"
  : "${REPEATS:=3}" "${NUM:=1000000}" "${SECONDS_PER_POINT:=6}"
fi
: "${SCALE_NUM:=}" "${SCALE_READS:=500000}" "${MULTIGET_BATCHES:=8 32 128}"
: "${MULTIGET_READS:=500000}" "${EXPERIMENTS:=reads whilewriting multiget rangedel}"
: "${RANGEDEL_COUNTS:=0 1000}"
engines=sluice,rocksdb,leveldb
start=$(date +%s)

wants() { [[ " $EXPERIMENTS " == *" $1 "* ]]; }

if wants reads; then
  point reads "num$NUM" --engine=$engines \
    --benchmarks=fillrandom,overwrite,readrandom,readseq,readreverse,seekrandom --num="$NUM"
fi

# A count-based fill (with --duration, fillrandom would be timed too), copied into every
# repetition's directory and reopened there.
seed=$(mktemp -d /tmp/sluice_reads_seed.XXXXXX)
trap 'rm -rf "$seed"' EXIT
if wants whilewriting || wants multiget || wants rangedel; then preload "$seed" "$NUM" "$engines"; fi
if wants whilewriting; then
  SEED_DB=$seed point whilewriting "num$NUM" --engine=$engines --use_existing_db=1 \
    --benchmarks=scanwhilewriting,readwhilewriting --scan_length=100 --num="$NUM" \
    --duration="$SECONDS_PER_POINT"
fi

if wants multiget; then
  # Random keys for each batch size, then batches of 32 neighbouring keys (--multiread_stride=1).
  for point_flags in $(for b in $MULTIGET_BATCHES; do echo "$b,0"; done) 32,1; do
    batch=${point_flags%,*} stride=${point_flags#*,}
    name=batch$batch
    [ "$stride" != 0 ] && name=$name-stride$stride
    for mode in multiget as-gets; do
      flag=()
      [ "$mode" = as-gets ] && flag=(--multiget_as_gets)
      SEED_DB=$seed point multiget "$name-$mode" --engine=$engines --use_existing_db=1 \
        --benchmarks=readrandom,multireadrandom --num="$NUM" --reads="$MULTIGET_READS" \
        --batch_size="$batch" --multiread_stride="$stride" "${flag[@]}"
    done
  done
fi

if wants rangedel; then
  for count in $RANGEDEL_COUNTS; do
    SEED_DB=$seed point rangedel "tombstones$count" --engine=sluice,rocksdb --use_existing_db=1 \
      --benchmarks=readrandom,deleterange,readrandom,seekrandom,flush,readrandom,seekrandom \
      --num="$NUM" --reads="$MULTIGET_READS" --max_num_range_tombstones="$count" \
      --range_tombstone_width=10
  done
fi

if [ -n "$SCALE_NUM" ]; then
  point scale "num$SCALE_NUM" --engine=$engines --benchmarks=fillrandom,compact,readrandom,seekrandom \
    --num="$SCALE_NUM" --reads="$SCALE_READS" --cache_size=33554432
fi

echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
