#!/usr/bin/env bash
out=${OUT:-bench/results/2026-11-29-wal-reserve}
for r in 1 2 3; do
  for label in before after; do
    rm -rf /tmp/ab_mb_db; sync
    /tmp/sb_$label --engine=sluice --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq --num=1000000 --db=/tmp/ab_mb_db > $out/makebench-$label-$r.txt 2>&1
    grep -E "^(fill|over|read)" $out/makebench-$label-$r.txt | awk -v l=$label -v r=$r '{print l, r, $1, $5}'
  done
done
rm -rf /tmp/ab_mb_db
