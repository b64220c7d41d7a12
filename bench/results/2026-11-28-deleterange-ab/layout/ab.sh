#!/bin/bash
# 3-way alternating A/B: before (0f627ab), after1 (tombstone set inside the base class),
# after2 (tombstone set on the heap), sluice only, fillseq/fillrandom/readrandom, 1M keys.
out=$1
for round in 1 2 3 4; do
  for v in before after1 after2; do
    case $v in
      before) bin=/tmp/ab-old/build/release/tools/sluice_bench;;
      after1) bin=/tmp/sluice_bench_after1;;
      after2) bin=/tmp/sluice_bench_after2;;
    esac
    $bin --engine=sluice --benchmarks=fillseq,fillrandom,readrandom,seekrandom \
      --num=1000000 --db=/tmp/ab_db --json=$out/$v-run-$round.json > $out/$v-run-$round.txt 2>&1
    rm -rf /tmp/ab_db
  done
done
