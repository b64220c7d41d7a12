#!/usr/bin/env bash
# Before/after for issue 17 as a whole, sluice alone, on the points of the FloDB and cLSM
# experiments whose ratios to the other engines moved against sluice (or that measure the
# flush code): BEFORE and AFTER are two sluice_bench binaries, run alternately ROUNDS times,
# each from a copy of the same pre-loaded databases where the experiment uses one.
#   BEFORE=... AFTER=... ROUNDS=3 OUT=dir run.sh
set -euo pipefail
: "${ROUNDS:=3}"
mkdir -p "$OUT"
seed_flodb=$(mktemp -d /tmp/ba_seed_flodb.XXXXXX)
seed_clsm=$(mktemp -d /tmp/ba_seed_clsm.XXXXXX)
trap 'rm -rf "$seed_flodb" "$seed_clsm" /tmp/ba_db.*' EXIT
flodb=(--key_format=binary --key_size=8 --value_size=256 --write_buffer_size=128MB)
"$AFTER" --engine=sluice --benchmarks=fillseq "${flodb[@]}" --num=2000000 --db="$seed_flodb" >/dev/null
"$AFTER" --engine=sluice --benchmarks=fillseq --num=1000000 --db="$seed_clsm" >/dev/null
run() {  # name binary-label binary seed args...
  local name=$1 label=$2 bin=$3 seed=$4
  shift 4
  local db
  db=$(mktemp -d /tmp/ba_db.XXXXXX)
  [ -n "$seed" ] && cp -a "$seed"/. "$db"/
  "$bin" --engine=sluice --db="$db" "$@" > "$OUT/$name-$label-$round.txt" 2>&1
  rm -rf "$db"
  grep -E "^[a-z_]+ +:" "$OUT/$name-$label-$round.txt" | tail -1 | sed "s/^/$name $label $round: /"
}
for round in $(seq 1 "$ROUNDS"); do
  for label in before after; do
    [ "$label" = before ] && bin=$BEFORE || bin=$AFTER
    run persist "$label" "$bin" "" --benchmarks=persist "${flodb[@]}" --num=2000000
    run writeonly_t1_walon "$label" "$bin" "" --benchmarks=writeonly "${flodb[@]}" \
      --num=16000000 --threads=1 --duration=8 --disable_wal=0
    run updatescan_t2_walon "$label" "$bin" "$seed_flodb" --use_existing_db=1 \
      --benchmarks=updatescan "${flodb[@]}" --num=2000000 --threads=2 --duration=5 \
      --scan_length=100 --disable_wal=0
    run readwrite_t2 "$label" "$bin" "$seed_clsm" --use_existing_db=1 \
      --benchmarks=readrandomwriterandom --readwritepercent=50 --num=1000000 --threads=2 \
      --duration=6
    run scanwhilewriting_t1 "$label" "$bin" "$seed_clsm" --use_existing_db=1 \
      --benchmarks=scanwhilewriting --scan_length=100 --num=1000000 --threads=1 --duration=6
  done
done
