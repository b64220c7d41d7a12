#!/bin/bash
# The node-index measurements of 2026-11-26 (docs/benchmarks.md, "Keys the sorted level holds
# are found through an index"). BEFORE and AFTER are sluice_bench binaries of the two commits;
# each point alternates them, ROUNDS times. Output: one file per run under $OUT.
# SKIP_BENCH=1 leaves out make bench's workload (the unlogged-write measurements did).
set -u
BEFORE=${BEFORE:?}; AFTER=${AFTER:?}; ROUNDS=${ROUNDS:-3}; OUT=${OUT:-.}; SKIP_BENCH=${SKIP_BENCH:-0}
mkdir -p "$OUT/writeonly" "$OUT/fillrandom" "$OUT/bench"
for r in $(seq "$ROUNDS"); do
  for build in before after; do
    bin=$BEFORE; [ "$build" = after ] && bin=$AFTER
    for num in 262144 16777216; do
      for t in 1 2; do
        rm -rf /tmp/sb
        "$bin" --engine=sluice --benchmarks=writeonly,stats --key_format=binary --key_size=8 \
          --value_size=256 --write_buffer_size=128MB --num=$num --threads=$t --duration=5 \
          --disable_wal=1 --db=/tmp/sb > "$OUT/writeonly/$build-n$num-t$t-r$r.txt" 2>&1
      done
    done
    for wal in 0 1; do
      rm -rf /tmp/sbf
      "$bin" --engine=sluice,rocksdb --benchmarks=fillrandom --key_format=binary --key_size=8 \
        --value_size=256 --write_buffer_size=128MB --num=250000 --threads=2 --disable_wal=$wal \
        --db=/tmp/sbf > "$OUT/fillrandom/$build-wal$((1 - wal))-r$r.txt" 2>&1
    done
    [ "$SKIP_BENCH" = 1 ] && continue
    rm -rf /tmp/sbb
    # make bench's workload (default Options), sluice alone
    "$bin" --engine=sluice --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq \
      --num=1000000 --db=/tmp/sbb > "$OUT/bench/$build-r$r.txt" 2>&1
  done
done
