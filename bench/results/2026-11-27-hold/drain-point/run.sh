#!/bin/bash
# usage: run.sh num threads rounds variants...
num=$1; t=$2; rounds=$3; shift 3
for r in $(seq $rounds); do for b in "$@"; do
  rm -rf /tmp/sb
  out=$($b --engine=sluice --benchmarks=writeonly --key_format=binary --key_size=8 --value_size=256 --write_buffer_size=128MB --num=$num --threads=$t --duration=5 --disable_wal=1 --db=/tmp/sb 2>&1 | grep '^writeonly')
  ops=$(echo "$out" | grep -oE '[0-9]+ ops/sec' | cut -d' ' -f1); ip=$(echo "$out" | grep -oE '\([0-9.]+% in place' )
  fl=$(echo "$out" | grep -oE '[0-9]+ flushes')
  echo "r$r $(basename $b) t=$t $ops $ip $fl"
done; done
