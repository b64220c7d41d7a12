#!/usr/bin/env bash
# bench/flodb_writes.sh — the write figures of sluice's FloDB write path, each
# engine in the same invocation: the FloDB paper's write-only workload (50% puts / 50% deletes
# of random 8-byte keys, 256-byte values, 128 MB memory component, WAL off, 5 s) on a small and
# a large key range at 1 and 2 threads, and fillrandom at 2 threads with the WAL on and off.
#
#   bench/flodb_writes.sh OUT_DIR [BINARY...]
#
# Each BINARY (default: build/release/tools/sluice_bench) is run in turn, round after round
# (ROUNDS, default 3), so several builds alternate on the same machine state; the text output
# of every run goes to OUT_DIR/<label>/<point>-<round>.txt, labels from LABELS="a b ..." (in
# the binaries' order; build0, build1, ... otherwise). ENGINES (default sluice,rocksdb),
# DURATION (default 5), FILL_NUM (fillrandom keys per thread, default 1000000) may be set.
# bench/summarize_writes.py OUT_DIR prints the medians.
set -euo pipefail

out=${1:?usage: $0 OUT_DIR [BINARY...]}
shift
binaries=("$@")
[ ${#binaries[@]} -eq 0 ] && binaries=(build/release/tools/sluice_bench)
read -r -a labels <<<"${LABELS:-}"
ROUNDS=${ROUNDS:-3}
ENGINES=${ENGINES:-sluice,rocksdb}
DURATION=${DURATION:-5}
FILL_NUM=${FILL_NUM:-1000000}
db=$(mktemp -d /tmp/flodb_writes.XXXXXX)
trap 'rm -rf "$db"' EXIT

common=(--engine="$ENGINES" --key_format=binary --key_size=8 --value_size=256
        --write_buffer_size=128MB)
points=(
  "writeonly-small-t1|--benchmarks=writeonly --num=262144 --threads=1 --duration=$DURATION --disable_wal=1"
  "writeonly-small-t2|--benchmarks=writeonly --num=262144 --threads=2 --duration=$DURATION --disable_wal=1"
  "writeonly-large-t1|--benchmarks=writeonly --num=16777216 --threads=1 --duration=$DURATION --disable_wal=1"
  "writeonly-large-t2|--benchmarks=writeonly --num=16777216 --threads=2 --duration=$DURATION --disable_wal=1"
  "fillrandom-t2-wal_on|--benchmarks=fillrandom --num=$FILL_NUM --threads=2"
  "fillrandom-t2-wal_off|--benchmarks=fillrandom --num=$FILL_NUM --threads=2 --disable_wal=1"
)

for round in $(seq 1 "$ROUNDS"); do
  for point in "${points[@]}"; do
    name=${point%%|*}
    read -r -a flags <<<"${point#*|}"
    for i in "${!binaries[@]}"; do
      bin=${binaries[$i]}
      label=${labels[$i]:-build$i}
      mkdir -p "$out/$label"
      rm -rf "${db:?}"/*
      echo "round $round: $label $name"
      "$bin" "${common[@]}" "${flags[@]}" --db="$db" >"$out/$label/$name-$round.txt" 2>&1
    done
  done
done
