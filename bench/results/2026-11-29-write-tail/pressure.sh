#!/usr/bin/env bash
# YCSB F then B on sluice and RocksDB in one invocation, from a synced copy of the flushed 20M
# seed, alternating rounds without and with a competing process (what a slow round of the
# shared machine might be):
#   pressure.sh hog ROUNDS  one busy-looping process on the two cores (outputs nohog-N, hog-N)
#   pressure.sh io ROUNDS   a loop writing 16 MB and fdatasync-ing it on the same file system,
#                           forcing ext4 journal commits (outputs quiet-N, io-N)
set -u
kind=${1:?hog or io}; rounds=${2:-2}; bench=${BENCH:-build/release/tools/sluice_bench}
out=${OUT:-bench/results/2026-11-29-write-tail}
seed=${SEED:-/work/ycsbseed-flushed}
case $kind in
  hog) conditions="nohog hog" ;;
  io) conditions="quiet io" ;;
  *) echo "pressure.sh: unknown competitor '$kind' (hog or io)" >&2; exit 2 ;;
esac
competitor() {
  if [ "$kind" = hog ]; then
    while :; do :; done
  else
    while :; do dd if=/dev/zero of=/tmp/iopressure.bin bs=1M count=16 conv=fdatasync status=none; done
  fi
}
for r in $(seq 1 "$rounds"); do
  for cond in $conditions; do
    db=$(mktemp -d /tmp/tail_db.XXXXXX); cp -a "$seed"/sluice "$seed"/rocksdb "$db/"; sync
    pid=
    if [ "$cond" = "$kind" ]; then competitor & pid=$!; fi
    "$bench" --engine=sluice,rocksdb --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=ycsb_f,ycsb_b > "$out/$cond-$r.txt" 2>&1
    if [ -n "$pid" ]; then kill "$pid"; wait "$pid" 2>/dev/null; fi
    awk -v c="$cond" -v r="$r" '/^== engine/{e=$3} /^ycsb_/{w=$1; printf "%s %s %s %s ops/s %s\n", c, r, e, w, $5} /^  \[/ {printf "%s %s %s %s %s P99 %s P99.9 %s\n", c, r, e, w, $1, $10, $12}' "$out/$cond-$r.txt"
    rm -rf "$db" /tmp/iopressure.bin
  done
done
