#!/bin/bash
# The lock-free read-modify-write before and after the per-thread write stamps: BEFORE and
# AFTER sluice_bench binaries alternating, 3 rounds, 6 s each, fresh DB each run.
#   BEFORE=... AFTER=... run.sh
here=$(dirname "$0")
for r in 1 2 3; do for label in before after; do
  [ "$label" = before ] && bin=$BEFORE || bin=$AFTER
  for point in "rmw_putifabsent 1000000 1" "rmw_putifabsent 1000000 2" "rmw_increment 64 2"; do
    set -- $point
    rm -rf /tmp/sbr
    out="$here/$1-$2-t$3-$label-$r.txt"
    "$bin" --engine=sluice --rmw=native --benchmarks=$1 --num=$2 --threads=$3 --duration=6 \
      --db=/tmp/sbr > "$out" 2>&1
    echo "$1 num=$2 t=$3 $label $r: $(grep -oE '[0-9]+ ops/sec' "$out" | head -1)"
  done
done; done
