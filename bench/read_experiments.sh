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
# 3. scale      (only with SCALE_NUM set, e.g. 20000000) fillrandom of SCALE_NUM keys, compact,
#               then readrandom and seekrandom (SCALE_READS each) with a 32 MB block cache
#
# Each point runs REPEATS times (3) through bench/run.sh, which writes
# bench/results/<date>-reads-<experiment>/<point>/run-<i>.{json,txt} and summary.md (medians
# and ratios). 1 and 2 take about 7 minutes on the project's 2-core machine; 3 with
# SCALE_NUM=20000000 about 26 minutes more. --quick: one short repetition of 1 and 2 under
# bench/results/tmp/ (a check that everything runs, not a measurement).
#
# Environment: SLUICE_BENCH (default build/release/tools/sluice_bench), REPEATS, NUM,
# SECONDS_PER_POINT, SCALE_NUM, SCALE_READS.
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-reads"
  : "${REPEATS:=1}" "${NUM:=100000}" "${SECONDS_PER_POINT:=2}"
else
  prefix="$date-reads"
  : "${REPEATS:=3}" "${NUM:=1000000}" "${SECONDS_PER_POINT:=6}"
fi
: "${SCALE_NUM:=}" "${SCALE_READS:=500000}"
engines=sluice,rocksdb,leveldb
start=$(date +%s)

point reads "num$NUM" --engine=$engines \
  --benchmarks=fillrandom,overwrite,readrandom,readseq,readreverse,seekrandom --num="$NUM"

# A count-based fill (with --duration, fillrandom would be timed too), copied into every
# repetition's directory and reopened there.
seed=$(mktemp -d /tmp/sluice_reads_seed.XXXXXX)
trap 'rm -rf "$seed"' EXIT
preload "$seed" "$NUM" "$engines"
SEED_DB=$seed point whilewriting "num$NUM" --engine=$engines --use_existing_db=1 \
  --benchmarks=scanwhilewriting,readwhilewriting --scan_length=100 --num="$NUM" \
  --duration="$SECONDS_PER_POINT"

if [ -n "$SCALE_NUM" ]; then
  point scale "num$SCALE_NUM" --engine=$engines --benchmarks=fillrandom,compact,readrandom,seekrandom \
    --num="$SCALE_NUM" --reads="$SCALE_READS" --cache_size=33554432
fi

echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
