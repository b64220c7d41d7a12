#!/bin/bash
# Alternating A/B of the read path without range tombstones: 0f627ab (before DeleteRange) vs
# this commit, sluice only, make bench's benchmarks plus seekrandom, 1M keys.
out=/work/main/bench/results/2026-11-28-deleterange-ab
for round in 1 2 3; do
  for v in before after; do
    if [ $v = before ]; then bin=/tmp/ab-old/build/release/tools/sluice_bench; else bin=/work/main/build/release/tools/sluice_bench; fi
    $bin --engine=sluice --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom \
      --num=1000000 --db=/tmp/ab_db --json=$out/$v-run-$round.json > $out/$v-run-$round.txt 2>&1
    rm -rf /tmp/ab_db
  done
done
