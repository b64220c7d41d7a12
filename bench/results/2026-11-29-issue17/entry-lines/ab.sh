#!/bin/bash
# usage: ab.sh ROUNDS NUM THREADS_LIST variant...   (binaries /tmp/s17/bench-$v)
R=$1; NUM=$2; TL=$3; shift 3
for r in $(seq 1 $R); do for t in $TL; do for v in "$@"; do
  rm -rf /tmp/wo
  /tmp/s17/bench-$v --engine=sluice --db=/tmp/wo --benchmarks=writeonly --key_format=binary --key_size=8 \
    --value_size=256 --write_buffer_size=128MB --num=$NUM --duration=5 --threads=$t --disable_wal=1 2>&1 \
    | grep -E "^writeonly" | awk -v v=$v -v t=$t -v r=$r '{print r, v, "t="t, $5}'
done; done; done
