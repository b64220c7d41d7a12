#!/usr/bin/env bash
# Runs the experiments of FloDB's evaluation (EuroSys'17, section 5) on sluice, RocksDB and
# LevelDB, and plots them:
#
#   bench/flodb_experiments.sh [--quick]
#
# 1. writeonly     50% inserts / 50% deletes, 1 and 2 threads; plus the persist ceiling
# 2. burst         10-second write bursts, memory component 128 MB ... 4 GB
# 3. skewed        50% reads / 50% updates, 98% of operations on 2% of the keys
# 4. memcomponent  sluice's memory component alone: no Membuffer / simple inserts / multi-insert
# 5. updatescan    95% updates / 5% scans of 100 keys, in keys accessed per second
# Keys are 8-byte binary keys (--key_format=binary), values 256 bytes, the memory component
# 128 MB unless the experiment varies it. Every database experiment runs with the WAL on (no
# sync) and with --disable_wal=1; LevelDB cannot skip its log (docs/bench.md).
#
# Each point is run REPEATS times (3) through bench/run.sh, which writes
# bench/results/<date>-flodb-<experiment>/<point>/run-<i>.{json,txt} and summary.md; then
# bench/plot_flodb.py draws bench/results/<date>-flodb-<experiment>/<experiment>.png and writes
# summary.md there. The whole suite takes about 31 minutes on the project's 2-core machine.
#
# --quick: one repetition of fewer, shorter points (about 3-5 minutes), written under
# bench/results/tmp/ (not tracked by git): a check that everything works, not a measurement.
#
# Environment: SLUICE_BENCH (the binary; default build/release/tools/sluice_bench, else
# build/tools/sluice_bench), REPEATS, and the per-experiment settings below (e.g.
# BURST_SIZES="128MB 1GB" bench/flodb_experiments.sh).
set -euo pipefail
# shellcheck source=bench/experiment_common.sh
source "$(dirname "$0")/experiment_common.sh"
if [ "$quick" = 1 ]; then
  prefix="tmp/$date-flodb"
  : "${REPEATS:=1}"
  : "${THREADS:=1 2}"             # writeonly, memcomponent
  : "${MIXED_THREADS:=2}"         # skewed, updatescan
  : "${WAL_MODES:=on off}"
  : "${WRITEONLY_SECONDS:=3}"
  : "${PERSIST_NUM:=500000}"
  : "${BURST_SIZES:=128MB 1GB}"
  : "${BURST_SECONDS:=4}"
  : "${BURST_THREADS:=2}"
  : "${MIXED_NUM:=500000}"
  : "${MIXED_SECONDS:=3}"
  : "${MEMCOMP_SIZE:=128MB}"
  : "${MEMCOMP_SECONDS:=3}"
else
  prefix="$date-flodb"
  : "${REPEATS:=3}"
  : "${THREADS:=1 2}"
  : "${MIXED_THREADS:=1 2}"
  : "${WAL_MODES:=on off}"
  : "${WRITEONLY_SECONDS:=8}"
  : "${PERSIST_NUM:=2000000}"
  : "${BURST_SIZES:=128MB 512MB 1GB 2GB 4GB}"
  : "${BURST_SECONDS:=10}"
  : "${BURST_THREADS:=2}"
  : "${MIXED_NUM:=2000000}"
  : "${MIXED_SECONDS:=5}"
  : "${MEMCOMP_SIZE:=1GB}"
  : "${MEMCOMP_SECONDS:=8}"
fi
# Writes draw keys uniformly from this many (the key space of writeonly, burst, memcomponent).
: "${WRITE_NUM:=16000000}"
engines=sluice,rocksdb,leveldb
common=(--key_format=binary --key_size=8 --value_size=256)
mem=(--write_buffer_size=128MB)  # where the experiment does not vary it


wal_flag() { [ "$1" = off ] && echo --disable_wal=1 || echo --disable_wal=0; }

start=$(date +%s)

# --- 1. write-only, and the persist ceiling ------------------------------------------------
for t in $THREADS; do
  for wal in $WAL_MODES; do
    point writeonly "t$t-wal_$wal" --engine=$engines --benchmarks=writeonly \
      "${common[@]}" "${mem[@]}" --num="$WRITE_NUM" --threads="$t" \
      --duration="$WRITEONLY_SECONDS" "$(wal_flag "$wal")"
  done
done
point writeonly persist --engine=sluice --benchmarks=persist "${common[@]}" "${mem[@]}" \
  --num="$PERSIST_NUM"

# --- 2. memory-size scaling: 10-second write bursts ------------------------------------------
for size in $BURST_SIZES; do
  # LevelDB clamps write_buffer_size to 1 GiB: above that its points would repeat the 1 GB one.
  case "$size" in
    2GB | 4GB | 8GB) burst_engines=sluice,rocksdb ;;
    *) burst_engines=$engines ;;
  esac
  for wal in $WAL_MODES; do
    point burst "$size-wal_$wal" --engine=$burst_engines --benchmarks=burst "${common[@]}" \
      --write_buffer_size="$size" --num="$WRITE_NUM" --threads="$BURST_THREADS" \
      --duration="$BURST_SECONDS" "$(wal_flag "$wal")"
  done
done

# --- 3 and 5 start from the same pre-loaded databases ----------------------------------------
seed=$(mktemp -d /tmp/sluice_flodb_seed.XXXXXX)
trap 'rm -rf "$seed"' EXIT
echo
echo "=== pre-loading $MIXED_NUM keys (fillseq) into $seed ==="
"$SLUICE_BENCH" --engine=$engines --benchmarks=fillseq "${common[@]}" "${mem[@]}" \
  --num="$MIXED_NUM" --db="$seed" | grep -E '^(fillseq|== engine)'

# --- 3. skewed reads and updates -------------------------------------------------------------
for t in $MIXED_THREADS; do
  for wal in $WAL_MODES; do
    SEED_DB=$seed point skewed "t$t-wal_$wal" --engine=$engines --use_existing_db=1 \
      --benchmarks=readupdate_skewed "${common[@]}" "${mem[@]}" --num="$MIXED_NUM" \
      --threads="$t" --duration="$MIXED_SECONDS" --hot_op_fraction=0.98 --hot_key_fraction=0.02 \
      "$(wal_flag "$wal")"
  done
done

# --- 4. the memory component alone -----------------------------------------------------------
for variant in nomembuffer simple multiinsert; do
  case $variant in
    nomembuffer) flags=(--flodb_use_membuffer=0) ;;
    simple) flags=(--flodb_use_membuffer=1 --flodb_multi_insert=0) ;;
    multiinsert) flags=(--flodb_use_membuffer=1 --flodb_multi_insert=1) ;;
  esac
  for t in $THREADS; do
    point memcomponent "$variant-t$t" --engine=sluice --benchmarks=memcomponent "${common[@]}" \
      --write_buffer_size="$MEMCOMP_SIZE" --num="$WRITE_NUM" --threads="$t" \
      --duration="$MEMCOMP_SECONDS" "${flags[@]}"
  done
done

# --- 5. updates and scans --------------------------------------------------------------------
for t in $MIXED_THREADS; do
  for wal in $WAL_MODES; do
    SEED_DB=$seed point updatescan "t$t-wal_$wal" --engine=$engines --use_existing_db=1 \
      --benchmarks=updatescan "${common[@]}" "${mem[@]}" --num="$MIXED_NUM" --threads="$t" \
      --duration="$MIXED_SECONDS" --scan_length=100 "$(wal_flag "$wal")"
  done
done

echo
echo "=== plots ==="
python3 bench/plot_flodb.py bench/results/"$prefix"-*/
echo
echo "done in $(($(date +%s) - start)) s; results in bench/results/$prefix-*/"
