#!/bin/bash
# usage: ab.sh rounds bin...   (writeonly, issue 17's four points, interleaved)
rounds=$1; shift
for r in $(seq $rounds); do
  for num in 262144 16777216; do for t in 1 2; do for b in "$@"; do
    rm -rf /tmp/sb
    v=$($b --engine=sluice --benchmarks=writeonly --key_format=binary --key_size=8 --value_size=256 --write_buffer_size=128MB --num=$num --duration=5 --threads=$t --disable_wal=1 --db=/tmp/sb 2>&1 | awk '/^writeonly/ {print $5}')
    echo "$b n$num t$t $v"
  done; done; done
done
