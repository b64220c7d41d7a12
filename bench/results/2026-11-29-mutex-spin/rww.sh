#!/usr/bin/env bash
# rww.sh ROUNDS BINS...: two-thread fillrandom then readwhilewriting, 1M keys, alternating binaries
rounds=$1; shift
for r in $(seq 1 $rounds); do for b in "$@"; do
  rm -rf /tmp/ab_t2_db; sync
  /tmp/tail/$b --engine=sluice --threads=2 --benchmarks=fillrandom,readwhilewriting --num=1000000 --db=/tmp/ab_t2_db > /tmp/tail/rww-$b-$r.txt 2>&1
  grep -E "^(fill|read)" /tmp/tail/rww-$b-$r.txt | awk -v l=$b -v r=$r '{print l, r, $1, $5}'
done; done
