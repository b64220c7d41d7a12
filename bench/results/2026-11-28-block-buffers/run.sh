#!/usr/bin/env bash
# Before/after of the block buffers (sluice alone), ROUNDS alternating rounds:
#   BEFORE=<sluice_bench> AFTER=<sluice_bench> SEED=<dir with a flushed 20M-record YCSB load,
#   sluice/ inside> ROUNDS=2 OUT=<dir> run.sh
# 1. make bench's workload (fillseq, fillrandom, overwrite, readrandom, readseq, 1M keys);
# 2. YCSB A, B, C, F, D, waitforcompaction, E with 2M operations, from a copy of SEED.
set -euo pipefail
: "${ROUNDS:=2}"
mkdir -p "$OUT"
for round in $(seq 1 "$ROUNDS"); do
  for label in before after; do
    [ "$label" = before ] && bin=$BEFORE || bin=$AFTER
    db=$(mktemp -d /tmp/bb_db.XXXXXX)
    "$bin" --engine=sluice --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq \
      --num=1000000 --db="$db" > "$OUT/makebench-$label-$round.txt" 2>&1
    rm -rf "$db"
    grep -E "^[a-z_]+ +:" "$OUT/makebench-$label-$round.txt" | awk -v l="$label" -v r="$round" '{print "makebench", l, r, $1, $5}'
    db=$(mktemp -d /tmp/bb_db.XXXXXX)
    cp -a "$SEED/sluice" "$db/"
    sync  # the copy written back before the run, not during it
    "$bin" --engine=sluice --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=ycsb_a,ycsb_b,ycsb_c,ycsb_f,ycsb_d,waitforcompaction,ycsb_e \
      > "$OUT/ycsb-$label-$round.txt" 2>&1
    rm -rf "$db"
    grep -E "^ycsb_" "$OUT/ycsb-$label-$round.txt" | awk -v l="$label" -v r="$round" '{print "ycsb", l, r, $1, $5}'
  done
done
