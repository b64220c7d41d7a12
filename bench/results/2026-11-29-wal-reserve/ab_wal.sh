#!/usr/bin/env bash
# YCSB A,B,D,F,E on sluice alone, alternating before/after the WAL reservation, each from a
# synced copy of the flushed 20M seed.
out=${OUT:-bench/results/2026-11-29-wal-reserve}
for r in 1 2 3; do
  for label in before after; do
    bin=/tmp/sb_$label
    db=$(mktemp -d /tmp/ab_db.XXXXXX); cp -a /work/ycsbseed-flushed/sluice "$db/"; sync
    $bin --engine=sluice --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=ycsb_a,ycsb_b,ycsb_d,ycsb_f,ycsb_e > $out/ycsb-$label-$r.txt 2>&1
    grep -E "^ycsb_" $out/ycsb-$label-$r.txt | awk -v l=$label -v r=$r '{print l, r, $1, $5}'
    rm -rf "$db"
  done
done
