#!/usr/bin/env bash
# YCSB F (and B) on sluice and RocksDB in one invocation, from a synced copy of the flushed 20M
# seed, with and without one busy-looping process competing for the two cores (what a slow
# round of the shared machine looks like). usage: hog.sh ROUNDS [BENCH]
set -u
rounds=${1:-2}; bench=${BENCH:-build/release/tools/sluice_bench}
out=${OUT:-bench/results/2026-11-29-write-tail}
seed=${SEED:-/work/ycsbseed-flushed}
for r in $(seq 1 "$rounds"); do
  for cond in nohog hog; do
    db=$(mktemp -d /tmp/tail_db.XXXXXX); cp -a "$seed"/sluice "$seed"/rocksdb "$db/"; sync
    hog=
    if [ $cond = hog ]; then (while :; do :; done) & hog=$!; fi
    "$bench" --engine=sluice,rocksdb --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=ycsb_f,ycsb_b > "$out/$cond-$r.txt" 2>&1
    [ -n "$hog" ] && kill "$hog"
    awk -v c=$cond -v r=$r '/^== engine/{e=$3} /^ycsb_/{w=$1; printf "%s %s %s %s ops/s %s\n", c, r, e, w, $5} /^  \[/ && $1!="[READ]" {printf "%s %s %s %s %s P99 %s P99.9 %s\n", c, r, e, w, $1, $10, $12}' "$out/$cond-$r.txt"
    rm -rf "$db"
  done
done
