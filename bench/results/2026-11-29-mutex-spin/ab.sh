#!/usr/bin/env bash
# ab.sh TAG ROUNDS BINS...: alternating rounds of each binary, sluice alone, A,B,F
cd /tmp/tail
tag=$1; rounds=$2; shift 2
for r in $(seq 1 $rounds); do
  for b in "$@"; do
    echo "$(date +%H:%M:%S) $b psi $(head -1 /proc/pressure/cpu)"
    BENCH=/tmp/tail/$b EXTRA= ./seq.sh $tag-$b-$r 1 sluice ${BENCHES:-ycsb_a,ycsb_b,ycsb_f} | grep -v "READ\] P99" | sed "s/^/$(date +%H:%M:%S) /"
  done
done
