#!/usr/bin/env bash
# Two threads: fillrandom, readrandom, readwhilewriting on 1M keys, sluice alone, 3 alternating rounds.
out=${OUT:-bench/results/2026-11-29-mutex-spin}
for r in ${ROUNDS:-1 2 3}; do
  for label in ${LABELS:-old spin}; do
    rm -rf /tmp/ab_t2_db; sync
    /tmp/tail/bench-$label --engine=sluice --threads=2 --benchmarks=fillrandom,readrandom,readwhilewriting --num=1000000 --db=/tmp/ab_t2_db > $out/threads2-$label-$r.txt 2>&1
    grep -E "^(fill|over|read)" $out/threads2-$label-$r.txt | awk -v l=$label -v r=$r '{print l, r, $1, $5}'
  done
done
rm -rf /tmp/ab_t2_db
