#!/bin/bash
# usage: [NOPROTO=1] [WAL=0|1] inter.sh num rounds threads bin...
num=$1; rounds=$2; threads=$3; shift 3
wal=${WAL:-0}; dis=$((1-wal))
declare -A res
for r in $(seq $rounds); do
  for b in "$@"; do
    rm -rf /tmp/sb
    v=$($b --engine=sluice --benchmarks=writeonly --key_format=binary --key_size=8 --value_size=256 --write_buffer_size=128MB --num=$num --threads=$threads --duration=5 --disable_wal=$dis --db=/tmp/sb 2>&1 | awk '/^writeonly/ {for(i=1;i<=NF;i++) if($i=="ops/sec;"||$i=="ops/sec") print $(i-1)}' | head -1)
    res[$b]="${res[$b]} $v"; echo "r$r $b $v"
  done
  if [ -z "$NOPROTO" ]; then
    rm -rf /tmp/flodb-db/db_test; mkdir -p /tmp/flodb-db
    v=$(cd /tmp/flodb-db && TEST_TMPDIR=/tmp/flodb-db /tmp/flodb-proto/db_test -n$threads -i$((num/2)) -r$num -u100 -d5000 -w0 2>&1 | grep -i "mops" | head -1)
    res[proto]="${res[proto]} $(echo $v | grep -oE '[0-9]+\.[0-9]+' | head -1)"; echo "r$r proto $v"
  fi
done
for k in "${!res[@]}"; do echo "MEDIAN $k: $(echo ${res[$k]} | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}') all:${res[$k]}"; done
