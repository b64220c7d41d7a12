#!/usr/bin/env bash
out=${OUT:-bench/results/2026-11-29-mutex-spin}
for r in ${ROUNDS:-1 2 3}; do
  for label in ${LABELS:-old spin}; do
    rm -rf /tmp/ab_mb_db; sync
    /tmp/tail/bench-$label --engine=sluice --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq --num=1000000 --db=/tmp/ab_mb_db > $out/makebench-$label-$r.txt 2>&1
    grep -E "^(fill|over|read)" $out/makebench-$label-$r.txt | awk -v l=$label -v r=$r '{print l, r, $1, $5}'
  done
done
rm -rf /tmp/ab_mb_db
