#!/usr/bin/env bash
# As hog.sh, but the competitor writes 16 MB and fdatasyncs it in a loop on the same file system
# (what a neighbour's or a compaction's write-back does to the ext4 journal).
set -u
rounds=${1:-2}; bench=${BENCH:-build/release/tools/sluice_bench}
out=${OUT:-bench/results/2026-11-29-write-tail}
seed=${SEED:-/work/ycsbseed-flushed}
for r in $(seq 1 "$rounds"); do
  for cond in quiet io; do
    db=$(mktemp -d /tmp/tail_db.XXXXXX); cp -a "$seed"/sluice "$seed"/rocksdb "$db/"; sync
    pid=
    if [ $cond = io ]; then
      (while :; do dd if=/dev/zero of=/tmp/iopressure.bin bs=1M count=16 conv=fdatasync status=none; done) & pid=$!
    fi
    "$bench" --engine=sluice,rocksdb --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=ycsb_f,ycsb_b > "$out/$cond-$r.txt" 2>&1
    [ -n "$pid" ] && kill "$pid" && wait "$pid" 2>/dev/null
    awk -v c=$cond -v r=$r '/^== engine/{e=$3} /^ycsb_/{w=$1; printf "%s %s %s %s ops/s %s\n", c, r, e, w, $5} /^  \[/ {printf "%s %s %s %s %s P99 %s P99.9 %s\n", c, r, e, w, $1, $10, $12}' "$out/$cond-$r.txt"
    rm -rf "$db" /tmp/iopressure.bin
  done
done
